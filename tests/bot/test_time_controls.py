"""Time banks, members away and the vote on an absent player's seat, with a fake clock, in
every game: a bank spent and refilled across moves and restarts, an empty bank played by
the AI, away in a simultaneous and a turn-based game, and the vote's majorities."""

from __future__ import annotations

import pytest

from bot.clock import FakeClock
from bot.community.desk import TournamentDesk
from bot.community.rounds import TournamentTables
from bot.community.tournament import TournamentSettings
from bot.service import ServiceError, Table, TableService, TableSettings
from bot.timebank import (
    BANK_PRESETS,
    DAY,
    HOUR,
    MAX_AWAY_SECONDS,
    VOTE_AFTER,
    VOTE_GRACE_HOURS,
    parse_bank,
    parse_duration,
)
from engine.core import Rng
from tests.bot.conftest import first_choice

ALICE, BOB, CAROL, DAVE, MALLORY = 11, 22, 33, 44, 99
GUILD = 1
FAST = BANK_PRESETS["fast"]  # 2 h + 1 h per move
OPTIONS = {"charioteer": {"laps": 1}, "cartographers": {}, "carcassonne": {}}


async def open_game(
    service: TableService, game: str, users: list[int], **settings: object
) -> Table:
    table = await service.open_lobby(
        game=game,
        host_id=users[0],
        host_name=f"user{users[0]}",
        settings=TableSettings(seats=len(users), options=OPTIONS[game], **settings),  # type: ignore[arg-type]
        guild_id=GUILD,
        channel_id=2,
    )
    for user in users[1:]:
        table = await service.join(table.id, user, f"user{user}")
    await service.start(table.id, users[0])
    return await service.table(table.id)


async def move(service: TableService, table_id: int, user: int) -> Table:
    """The member's whole move (a turn of Carcassonne may take more than one action)."""
    while True:
        table, view = await service.view_for(table_id, user)
        seat = table.seat_of(user)
        assert seat is not None
        if seat.seat not in table.waiting:
            return table
        action = table.host.ai_action("random", view, Rng(5, table.row.seq))
        await service.submit(table_id, user, action, table.row.turn)


def owing(table: Table, user: int) -> bool:
    seat = table.seat_of(user)
    return seat is not None and seat.seat in table.waiting


def test_banks_and_durations_read_as_players_type_them() -> None:
    assert parse_bank("36h+12h") == (36 * HOUR, 12 * HOUR)
    assert parse_bank("2d + 6h") == (48 * HOUR, 6 * HOUR)
    assert parse_bank("36h") is None and parse_bank("h+1h") is None
    assert parse_duration("2d12h") == 60 * HOUR and parse_duration("soon") is None


async def test_a_bank_is_spent_refilled_and_capped_across_moves_and_a_restart(
    db_path: str, clock: FakeClock
) -> None:
    """Carcassonne, 2 h + 1 h: alice spends 30 min (2 h: capped), bob 90 min (30 min left,
    +1 h = 1 h 30); after a restart the deadline and the banks are as stored."""
    service = await TableService.create(db_path, clock=clock, choose_action=first_choice)
    table = await open_game(service, "carcassonne", [ALICE, BOB], bank=FAST)
    assert table.settings.turn_seconds is None
    first = ALICE if owing(table, ALICE) else BOB
    second = BOB if first == ALICE else ALICE
    assert table.row.deadline == clock.now() + 2 * HOUR
    clock.advance(HOUR / 2)
    table = await move(service, table.id, first)
    assert table.clock(table.seat_of(first).seat)["left"] == 2 * HOUR  # type: ignore[union-attr]
    clock.advance(1.5 * HOUR)
    table = await move(service, table.id, second)
    seat = table.seat_of(second).seat  # type: ignore[union-attr]
    assert table.clock(seat)["left"] == 1.5 * HOUR
    clock.advance(HOUR)
    await service.close()

    service = await TableService.create(db_path, clock=clock, choose_action=first_choice)
    try:
        table = await service.table(table.id)
        assert owing(table, first)
        assert table.row.deadline == clock.now() + HOUR  # 2 h bank, 1 h of it gone
        assert await service.next_wakeup() == table.row.deadline
    finally:
        await service.close()


@pytest.mark.parametrize("game", ["charioteer", "cartographers", "carcassonne"])
async def test_an_empty_bank_is_played_by_the_ai_and_refilled_by_the_increment(
    service: TableService, clock: FakeClock, game: str
) -> None:
    table = await open_game(service, game, [ALICE, BOB], bank=(HOUR, HOUR // 2))
    late = table.waiting_humans()[0]
    clock.advance(HOUR - 1)
    assert await service.fire_due() == []
    clock.advance(1)
    updates = await service.fire_due()
    assert late.seat in {update.seat for update in updates}
    assert all(update.stored for update in updates)
    table = await service.table(table.id)
    assert table.clock(late.seat)["left"] == HOUR / 2  # nothing left, then the increment


async def test_in_a_simultaneous_game_each_seat_spends_its_own_bank(
    service: TableService, clock: FakeClock
) -> None:
    """Charioteer, 2 h + 1 h: alice moves at once, bob waits; the turn waits for bob's bank
    alone, and only his seat is played by the AI when it empties."""
    table = await open_game(service, "charioteer", [ALICE, BOB], bank=FAST)
    turn = table.row.turn
    await move(service, table.id, ALICE)
    clock.advance(2 * HOUR)
    updates = await service.fire_due()
    assert [update.seat for update in updates] == ["B"]
    table = await service.table(table.id)
    assert table.row.turn == turn + 1
    assert table.clock("A")["left"] == 2 * HOUR and table.clock("B")["left"] == HOUR


async def test_away_in_a_simultaneous_game_hands_the_move_to_the_ai_at_once(
    service: TableService, clock: FakeClock
) -> None:
    table = await open_game(service, "cartographers", [ALICE, BOB], bank=FAST)
    clock.advance(60)
    changed = await service.set_away(GUILD, BOB, clock.now() + 3 * 24 * HOUR)
    assert changed == [table.id]
    table = await service.table(table.id)
    assert table.row.deadline == clock.now()
    bob = table.seat_of(BOB).seat  # type: ignore[union-attr]
    assert table.away_until(bob, clock.now()) == clock.now() + 3 * 24 * HOUR
    updates = await service.fire_due()
    assert [update.seat for update in updates] == [bob]
    table = await service.table(table.id)
    assert owing(table, ALICE) and table.row.deadline == clock.now() - 60 + 2 * HOUR


async def test_a_move_owed_when_the_member_comes_back_waits_for_them(
    service: TableService, clock: FakeClock
) -> None:
    """Carcassonne, 2 h + 1 h: the active player goes away and comes back before the AI
    played for them (the dispatcher was late): their move waits for their bank again."""
    table = await open_game(service, "carcassonne", [ALICE, BOB], bank=FAST)
    absent = table.waiting_humans()[0]
    assert absent.user_id is not None
    await service.set_away(GUILD, absent.user_id, clock.now() + 24 * HOUR)
    assert (await service.table(table.id)).row.deadline == clock.now()
    clock.advance(60)
    await service.back(GUILD, absent.user_id)
    assert await service.fire_due() == []
    assert (await service.table(table.id)).row.deadline == clock.now() - 60 + 2 * HOUR


async def test_away_in_a_turn_based_game_pauses_the_bank_where_the_host_allows_it(
    service: TableService, clock: FakeClock
) -> None:
    table = await open_game(service, "carcassonne", [ALICE, BOB], bank=FAST, away_pauses=True)
    absent = table.waiting_humans()[0]
    assert absent.user_id is not None
    clock.advance(HOUR)
    await service.set_away(GUILD, absent.user_id, clock.now() + 24 * HOUR)
    table = await service.table(table.id)
    assert table.row.deadline == clock.now() + 25 * HOUR  # 1 h left once back
    clock.advance(2 * HOUR)
    assert await service.fire_due() == []
    await service.back(GUILD, absent.user_id)
    table = await service.table(table.id)
    assert table.row.deadline == clock.now() + HOUR
    assert table.away_until(absent.seat, clock.now()) is None
    with pytest.raises(ServiceError) as again:
        await service.back(GUILD, absent.user_id)
    assert again.value.key == "error.not_away"


async def test_a_seat_handed_to_another_member_drops_its_former_players_absence(
    service: TableService, clock: FakeClock
) -> None:
    """A server admin seats carol in bob's seat while bob is away and his move is due at
    once: carol's move waits for her bank."""
    table = await open_game(service, "charioteer", [ALICE, BOB], bank=FAST)
    await service.set_away(GUILD, BOB, clock.now() + 24 * HOUR)
    assert (await service.table(table.id)).row.deadline == clock.now()
    update = await service.substitute(table.id, ALICE, "B", CAROL, "carol", admin=True)
    table = update.table
    assert table.away_until("B", clock.now()) is None
    assert table.row.deadline == clock.now() + 2 * HOUR
    assert await service.fire_due() == []


async def test_away_is_refused_in_a_tournament_game_unless_the_organiser_allows_it(
    service: TableService,
) -> None:
    await open_game(service, "charioteer", [ALICE, BOB], away_refused=True)
    with pytest.raises(ServiceError) as refused:
        await service.set_away(GUILD, BOB, service.clock.now() + HOUR)
    assert refused.value.key == "error.away_refused"
    assert await service.away_until(GUILD, BOB) is None


async def absent_table(service: TableService, clock: FakeClock, users: list[int]) -> Table:
    """A Charioteer game without a time limit where everyone but dave moved a day ago,
    and alice opened the vote on his seat as long ago as his grace lasts (he chose no
    quiet hours: 12 hours)."""
    table = await open_game(service, "charioteer", users, turn_seconds=None)
    for user in users:
        if user != DAVE:
            await move(service, table.id, user)
    clock.advance(VOTE_AFTER)
    opening = await service.open_vote(table.id, ALICE)
    assert opening.opened and opening.seat.user_id == DAVE
    assert opening.opens == clock.now() + VOTE_GRACE_HOURS * HOUR
    clock.advance(VOTE_GRACE_HOURS * HOUR)
    return await service.table(table.id)


async def test_a_majority_of_the_others_hands_the_absent_seat_to_the_ai_for_the_turn(
    service: TableService, clock: FakeClock
) -> None:
    table = await absent_table(service, clock, [ALICE, BOB, CAROL, DAVE])
    seat = table.seat_of(DAVE).seat  # type: ignore[union-attr]
    turn = table.row.turn
    assert service.may_vote_on(table, seat) == table.clock(seat)["since"]
    first = await service.vote(table.id, ALICE, seat, turn, "turn")
    assert first.decision is None and first.voters == 3
    second = await service.vote(table.id, BOB, seat, turn, "game")
    assert second.decision == "turn" and second.update is not None
    after = await service.table(table.id)
    assert after.row.turn == table.row.turn + 1 and after.seat(seat).user_id == DAVE
    with pytest.raises(ServiceError) as late:
        await service.vote(table.id, CAROL, seat, turn, "game")
    assert late.value.key == "error.vote_void"


async def test_a_majority_for_the_rest_of_the_game_makes_it_an_ai_seat(
    service: TableService, clock: FakeClock
) -> None:
    table = await absent_table(service, clock, [ALICE, DAVE])
    seat = table.seat_of(DAVE).seat  # type: ignore[union-attr]
    vote = await service.vote(table.id, ALICE, seat, table.row.turn, "game")
    assert vote.decision == "game"
    assert (await service.table(table.id)).seat(seat).is_ai


async def test_a_tie_decides_nothing_and_the_absent_player_and_strangers_cannot_vote(
    service: TableService, clock: FakeClock
) -> None:
    table = await absent_table(service, clock, [ALICE, BOB, DAVE])
    seat = table.seat_of(DAVE).seat  # type: ignore[union-attr]
    turn = table.row.turn
    for voter, key in ((DAVE, "error.vote_self"), (MALLORY, "error.not_seated")):
        with pytest.raises(ServiceError) as refused:
            await service.vote(table.id, voter, seat, turn, "game")
        assert refused.value.key == key
    assert (await service.vote(table.id, ALICE, seat, turn, "turn")).decision is None
    tie = await service.vote(table.id, BOB, seat, turn, "wait")
    assert tie.decision == "wait" and tie.update is None
    assert owing(await service.table(table.id), DAVE)


async def test_a_vote_after_the_player_moved_is_void_and_none_before_a_day(
    service: TableService, clock: FakeClock
) -> None:
    table = await open_game(service, "charioteer", [ALICE, DAVE], turn_seconds=None)
    await move(service, table.id, ALICE)
    table = await service.table(table.id)
    seat = table.seat_of(DAVE).seat  # type: ignore[union-attr]
    turn = table.row.turn
    clock.advance(VOTE_AFTER - 1)
    assert service.may_vote_on(table, seat) is None
    with pytest.raises(ServiceError) as early:
        await service.vote(table.id, ALICE, seat, turn, "turn")
    assert early.value.key == "error.vote_void"
    with pytest.raises(ServiceError) as not_yet:
        await service.open_vote(table.id, ALICE)
    assert not_yet.value.key == "error.no_vote_yet"
    clock.advance(1)
    with pytest.raises(ServiceError) as unopened:
        await service.vote(table.id, ALICE, seat, turn, "turn")
    assert unopened.value.key == "error.vote_void"
    await service.open_vote(table.id, ALICE)
    await move(service, table.id, DAVE)
    with pytest.raises(ServiceError) as void:
        await service.vote(table.id, ALICE, seat, turn, "turn")
    assert void.value.key == "error.vote_void"


async def test_a_tournament_opens_its_tables_on_the_organisers_time_control(
    service: TableService,
) -> None:
    """The organiser chose daily banks and no absences: every table of the round has them,
    and a player of one cannot go away."""
    desk = TournamentDesk(service.storage, service.clock)
    table_settings = {
        "turn_seconds": None,
        "bank": list(BANK_PRESETS["daily"]),
        "away_refused": True,
        "options": {"laps": 1},
    }
    record = await desk.create(
        guild_id=GUILD,
        game="charioteer",
        name="Daily Cup",
        host_id=ALICE,
        settings=TournamentSettings(rounds=1, table_size=2, min_table=2, table=table_settings),
    )
    for user in (BOB, CAROL, DAVE, MALLORY):
        await desk.sign_up(record.id, user, f"user{user}")
    await desk.start(record.id, ALICE)
    opened = await TournamentTables(desk, service).open_round(record.id, channel_id=5)
    assert len(opened) == 2
    for table in opened:
        assert table.settings.bank == BANK_PRESETS["daily"]
        assert table.row.deadline == service.clock.now() + BANK_PRESETS["daily"][0]
    with pytest.raises(ServiceError) as refused:
        await service.set_away(GUILD, BOB, service.clock.now() + HOUR)
    assert refused.value.key == "error.away_refused"


def test_durations_read_ascii_digits_only_and_nothing_typed_is_too_large_to_read() -> None:
    for typed in ("²h+1h", "1h+٣h", "9" * 4400 + "d+1h", "9" * 7 + "m+1h", "1h+-1h"):
        assert parse_bank(typed) is None, typed
    for typed in ("²d", "٣d", "9" * 4400 + "d", "1d²"):
        assert parse_duration(typed) is None, typed
    assert parse_duration("999999m") == 999999 * 60


@pytest.mark.parametrize(
    ("bank", "fits"),
    [
        ((14 * DAY, 3 * DAY), True),
        ((60, 0), True),
        ((59, 0), False),
        ((14 * DAY + 1, HOUR), False),
        ((7 * DAY, 3 * DAY + 1), False),
        ((2 * HOUR, 3 * HOUR), False),
        ((9999 * DAY, 9999 * DAY), False),
        ((10**40 * DAY, DAY), False),
    ],
)
async def test_a_bank_beyond_its_bounds_opens_no_lobby(
    service: TableService, bank: tuple[int, int], fits: bool
) -> None:
    settings = TableSettings(seats=2, options=OPTIONS["charioteer"], bank=bank)
    if fits:
        table = await open_game(service, "charioteer", [ALICE, BOB], bank=bank)
        assert table.row.deadline == service.clock.now() + bank[0]
        return
    with pytest.raises(ServiceError) as refused:
        await service.open_lobby(
            game="charioteer", host_id=ALICE, host_name="alice", settings=settings, guild_id=GUILD
        )
    assert refused.value.key == "error.bad_bank"


async def test_an_absence_is_at_most_thirty_days(service: TableService) -> None:
    now = service.clock.now()
    with pytest.raises(ServiceError) as refused:
        await service.set_away(GUILD, BOB, now + MAX_AWAY_SECONDS + 1)
    assert refused.value.key == "error.away_too_long" and refused.value.params["days"] == 30
    await service.set_away(GUILD, BOB, now + MAX_AWAY_SECONDS)
    assert await service.away_until(GUILD, BOB) == now + MAX_AWAY_SECONDS


async def test_a_table_refusing_absences_ignores_one_its_clocks_recorded(
    service: TableService, clock: FakeClock
) -> None:
    """An absence recorded at a tournament table before absences were kept off such tables
    (a database of an earlier version): its seat's time runs as anyone's."""
    table = await open_game(service, "charioteer", [ALICE, BOB], away_refused=True)
    deadline = table.row.deadline
    away = {"away_since": clock.now(), "away_until": clock.now() + DAY}
    clocks = {seat: {**clock_of, **away} for seat, clock_of in table.clocks.items()}
    await service.storage.update_table(table.id, clock.now(), clocks=clocks)
    service._forget(table.id)
    table = await service.table(table.id)
    assert all(table.expiry(seat.seat) == deadline for seat in table.seats)
    assert table.away_until("A", clock.now()) is None
    assert await service.fire_due() == []


async def test_votes_in_the_grace_take_effect_when_it_ends_unless_the_seat_moves(
    service: TableService, clock: FakeClock
) -> None:
    """Alice and bob vote dave's seat over in his grace: nothing happens until it ends,
    then the dispatcher plays his move; at a second table he moves in his grace, and
    nothing is owed any more."""
    users = [ALICE, BOB, DAVE]
    for moves_in_time in (False, True):
        table = await open_game(service, "charioteer", users, turn_seconds=None)
        for user in (ALICE, BOB):
            await move(service, table.id, user)
        clock.advance(VOTE_AFTER)
        opening = await service.open_vote(table.id, BOB)
        again = await service.open_vote(table.id, ALICE)
        assert not again.opened and again.opens == opening.opens
        seat, turn = opening.seat.seat, table.row.turn
        first = await service.vote(table.id, ALICE, seat, turn, "turn")
        assert first.decision is None and first.pending is None
        second = await service.vote(table.id, BOB, seat, turn, "turn")
        assert second.decision is None and second.pending == "turn"
        assert (await service.table(table.id)).row.deadline == opening.opens
        clock.advance(HOUR)
        assert await service.fire_due() == []
        if moves_in_time:
            after = await move(service, table.id, DAVE)
            assert after.row.deadline is None and after.vote_due(seat) is None
        clock.advance(opening.opens - clock.now())
        updates = await service.fire_due()
        if moves_in_time:
            assert updates == []
            continue
        [update] = updates
        assert update.vote is not None and update.vote.decision == "turn"
        after = await service.table(table.id)
        assert after.row.turn == turn + 1 and after.seat(seat).user_id == DAVE


async def test_a_vote_is_dropped_when_the_seat_changes_hands(
    service: TableService, clock: FakeClock
) -> None:
    table = await open_game(service, "charioteer", [ALICE, BOB, DAVE], turn_seconds=None)
    for user in (ALICE, BOB):
        await move(service, table.id, user)
    clock.advance(VOTE_AFTER)
    opening = await service.open_vote(table.id, ALICE)
    seat = opening.seat.seat
    await service.vote(table.id, ALICE, seat, table.row.turn, "game")
    await service.vote(table.id, BOB, seat, table.row.turn, "game")
    update = await service.substitute(table.id, DAVE, seat, CAROL, "carol")
    assert update.table.vote_opens(seat) is None and update.table.vote_due(seat) is None
    clock.advance(DAY)
    assert await service.fire_due() == []
    assert (await service.table(table.id)).seat(seat).user_id == CAROL
