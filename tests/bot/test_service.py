"""The game service with a real SQLite file: whole races, restarts, concurrency, time
limits, seats changing hands, and refusals that change nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.clock import FakeClock
from bot.service import (
    RECENT_REPORTS,
    Announcement,
    RuleError,
    ServiceError,
    Table,
    TableService,
    TableSettings,
    Update,
)
from bot.storage import SeatRow, StoredAction
from engine.charioteer import Move
from engine.core import Rng, replay
from tests.bot.conftest import first_choice

ALICE, BOB, CAROL, MALLORY = 11, 22, 33, 99


async def open_race(
    service: TableService, humans: int = 2, ai: int = 0, **settings: object
) -> Table:
    users = [ALICE, BOB, CAROL][:humans]
    table = await service.open_lobby(
        game="charioteer",
        host_id=users[0],
        host_name="alice",
        settings=race_settings(seats=humans + ai, **settings),
        guild_id=1,
        channel_id=2,
    )
    for user in users[1:]:
        table = await service.join(table.id, user, f"user{user}")
    for _ in range(ai):
        table = await service.add_ai(table.id, ALICE, "greedy")
    await service.start(table.id, ALICE)
    await service.play_ai_seats(table.id)
    return await service.table(table.id)


def race_settings(seats: int, laps: int | None = None, **settings: object) -> TableSettings:
    """Charioteer settings as the lobby stores them: laps among the game's options."""
    options = {} if laps is None else {"laps": laps}
    return TableSettings(seats=seats, options=options, **settings)  # type: ignore[arg-type]


async def random_move(
    service: TableService, table_id: int, user: int, rng: Rng
) -> tuple[Move, int]:
    _, view = await service.view_for(table_id, user)
    moves = view.legal_moves(discards=False)
    return moves[rng.below(len(moves))], view.turn


async def play_to_the_end(service: TableService, table_id: int, rng: Rng) -> list[Update]:
    updates = []
    for _ in range(500):
        table = await service.table(table_id)
        if table.status != "running":
            return updates
        for seat in table.waiting_humans():
            assert seat.user_id is not None
            move, turn = await random_move(service, table_id, seat.user_id, rng)
            updates.append(await service.submit(table_id, seat.user_id, move, turn))
            updates.extend(await service.play_ai_seats(table_id))
    raise AssertionError("the race did not end")


async def test_a_whole_race_with_people_and_ai_seats(service: TableService) -> None:
    table = await open_race(service, humans=2, ai=1, laps=1)
    assert [seat.seat for seat in table.seats] == ["A", "B", "C"]
    assert {seat.seat for seat in table.waiting_humans()} == {"A", "B"}
    updates = await play_to_the_end(service, table.id, Rng(5))
    final = await service.table(table.id)
    assert final.status == "finished"
    results = await service.storage.results(table.id)
    assert [row.place for row in results] == [1, 2, 3]
    assert {row.seat for row in results} == {"A", "B", "C"}
    resolved = [update for update in updates if update.resolved]
    assert resolved[-1].result is not None
    assert results[0].seat == resolved[-1].result.winners[0]
    announcements = await service.announcements(table.id)
    kinds = [a.row.kind for a in announcements]
    assert kinds.count("reveal") == len(resolved)
    assert kinds.count("podium") == 1 and kinds[-2:] == ["podium", "replay"]
    assert kinds.count("board") == len(resolved)  # turn 1's, then one per turn but the last
    assert kinds[0] == "board"


async def test_the_log_rebuilds_every_turn_from_the_record(service: TableService) -> None:
    table = await open_race(service, humans=2, laps=1)
    updates = await play_to_the_end(service, table.id, Rng(8))
    live = [report for update in updates for report in update.turns]
    rebuilt = await service.turn_reports(table.id)
    assert [(r.turn, r.seq) for r in rebuilt] == [(r.turn, r.seq) for r in live]
    assert [r.events for r in rebuilt] == [r.events for r in live]


async def test_the_latest_steps_read_as_the_game_goes_are_those_the_record_rebuilds(
    service: TableService, db_path: Path, clock: FakeClock
) -> None:
    """Each read of the latest steps plays on from where the last one ended: read after
    every move, they are at each point the end of the log a fresh process rebuilds from
    the record, as many as a post may tell."""
    table = await open_race(service, humans=2, laps=1)
    rng = Rng(9)
    seen = [(0, await service.recent_reports(table.id))]
    while (running := await service.table(table.id)).status == "running":
        user = running.waiting_humans()[0].user_id
        assert user is not None
        move, turn = await random_move(service, table.id, user, rng)
        await service.submit(table.id, user, move, turn)
        seen.append((running.row.seq + 1, await service.recent_reports(table.id)))
    fresh = await TableService.create(str(db_path), clock=clock, choose_action=first_choice)
    try:
        rebuilt = await fresh.turn_reports(table.id)
        assert await fresh.recent_reports(table.id) == rebuilt[-RECENT_REPORTS:]
    finally:
        await fresh.close()
    assert len(rebuilt) > RECENT_REPORTS
    for seq, reports in seen:
        assert reports == [r for r in rebuilt if r.seq <= seq][-RECENT_REPORTS:]
    assert await service.turn_reports(table.id) == rebuilt


async def test_an_accepted_move_survives_a_restart(db_path: Path, clock: FakeClock) -> None:
    first = await TableService.create(str(db_path), clock=clock, choose_action=first_choice)
    table = await open_race(first, humans=2)
    move, turn = await random_move(first, table.id, ALICE, Rng(1))
    await first.submit(table.id, ALICE, move, turn)
    await first.close()

    second = await TableService.create(str(db_path), clock=clock, choose_action=first_choice)
    _, alice_view = await second.view_for(table.id, ALICE)
    assert alice_view.my_move == move
    assert alice_view.waiting_for == ("B",)
    bob_move, turn = await random_move(second, table.id, BOB, Rng(2))
    update = await second.submit(table.id, BOB, bob_move, turn)
    assert update.resolved
    await play_to_the_end(second, table.id, Rng(3))
    game = await second.game(table.id)
    assert replay(game.record) == game.state
    await second.close()


async def test_two_processes_racing_the_last_move_and_the_deadline_resolve_the_turn_once(
    db_path: str, clock: FakeClock
) -> None:
    """One service's timer and another's click (two bot processes on one database), each
    holding the turn in memory: the database serialises their writes, one resolves the
    turn and the other finds it resolved (the click is refused as a stale turn; the timer
    has nothing to do)."""
    timer = await TableService.create(db_path, clock=clock, choose_action=first_choice)
    clicks = await TableService.create(db_path, clock=clock, choose_action=first_choice)
    try:
        table = await open_race(timer, humans=2, turn_seconds=60)
        move, turn = await random_move(timer, table.id, ALICE, Rng(1))
        await timer.submit(table.id, ALICE, move, turn)
        bob_move, _ = await random_move(clicks, table.id, BOB, Rng(2))
        clock.advance(61)
        click, timed_out = await asyncio.gather(
            clicks.submit(table.id, BOB, bob_move, turn), timer.fire_due(), return_exceptions=True
        )
        resolved = [update for update in (click, *timed_out) if isinstance(update, Update)]
        assert sum(update.resolved for update in resolved) == 1
        if not isinstance(click, Update):
            assert isinstance(click, ServiceError) and click.key == "error.stale_turn"
        stored = await clicks.storage.table(table.id)
        assert stored is not None and stored.turn == turn + 1 and stored.seq == 2
        assert await timer.storage.action_count(table.id) == 2
        assert await timer.fire_due() == [] and await clicks.fire_due() == []
    finally:
        await timer.close()
        await clicks.close()


async def test_both_last_moves_at_once_resolve_the_turn_once(service: TableService) -> None:
    table = await open_race(service, humans=3)
    rng = Rng(4)
    moves = [await random_move(service, table.id, user, rng) for user in (ALICE, BOB, CAROL)]
    updates = await asyncio.gather(
        *(
            service.submit(table.id, user, move, turn)
            for user, (move, turn) in zip((ALICE, BOB, CAROL), moves, strict=True)
        )
    )
    assert sum(update.resolved for update in updates) == 1
    assert (await service.table(table.id)).row.turn == 2
    assert await service.storage.action_count(table.id) == 3


async def test_a_double_click_stores_one_move(service: TableService) -> None:
    table = await open_race(service, humans=2)
    move, turn = await random_move(service, table.id, ALICE, Rng(6))
    first, second = await asyncio.gather(
        service.submit(table.id, ALICE, move, turn), service.submit(table.id, ALICE, move, turn)
    )
    assert [first.stored, second.stored].count(True) == 1
    assert await service.storage.action_count(table.id) == 1


async def test_a_move_can_be_changed_until_the_last_seat_commits(service: TableService) -> None:
    table = await open_race(service, humans=2)
    _, view = await service.view_for(table.id, ALICE)
    moves = view.legal_moves(discards=False)
    await service.submit(table.id, ALICE, moves[0], 1)
    update = await service.submit(table.id, ALICE, moves[1], 1)
    assert update.changed_move
    _, view = await service.view_for(table.id, ALICE)
    assert view.my_move == moves[1]


async def test_a_hundred_races_in_parallel(service: TableService) -> None:
    tables = [await open_race(service, humans=2, laps=1) for _ in range(100)]

    async def one_turn(table: Table, seed: int) -> bool:
        rng = Rng(seed)
        alice, turn = await random_move(service, table.id, ALICE, rng)
        bob, _ = await random_move(service, table.id, BOB, rng)
        results = await asyncio.gather(
            service.submit(table.id, ALICE, alice, turn), service.submit(table.id, BOB, bob, turn)
        )
        return any(update.resolved for update in results)

    resolved = await asyncio.gather(*(one_turn(table, index) for index, table in enumerate(tables)))
    assert all(resolved)
    for table in tables:
        assert (await service.table(table.id)).row.turn == 2


async def test_refusals_change_nothing(service: TableService) -> None:
    table = await open_race(service, humans=2)
    move, turn = await random_move(service, table.id, ALICE, Rng(7))
    before = await service.storage.action_count(table.id)
    with pytest.raises(ServiceError) as foreign:
        await service.submit(table.id, MALLORY, move, turn)
    assert foreign.value.key == "error.not_seated"
    with pytest.raises(ServiceError) as stale:
        await service.submit(table.id, ALICE, move, turn - 1)
    assert stale.value.key == "error.stale_turn"
    with pytest.raises(RuleError) as illegal:
        await service.submit(table.id, ALICE, Move((0, 0, 1), move.symbol), turn)
    assert "twice" in illegal.value.params["reason"]
    assert await service.storage.action_count(table.id) == before
    await service.abandon(table.id, ALICE)
    with pytest.raises(ServiceError) as over:
        await service.submit(table.id, ALICE, move, turn)
    assert over.value.key == "error.race_over"


async def test_only_the_host_starts_adds_ai_and_abandons(service: TableService) -> None:
    table = await service.open_lobby(
        game="charioteer", host_id=ALICE, host_name="alice", settings=TableSettings(seats=3)
    )
    await service.join(table.id, BOB, "bob")
    for call in (service.start(table.id, BOB), service.add_ai(table.id, BOB, "random")):
        with pytest.raises(ServiceError) as refused:
            await call
        assert refused.value.key == "error.host_only"
    with pytest.raises(ServiceError) as twice:
        await service.join(table.id, BOB, "bob")
    assert twice.value.key == "error.already_joined"
    await service.add_ai(table.id, ALICE, "random")
    with pytest.raises(ServiceError) as full:
        await service.join(table.id, CAROL, "carol")
    assert full.value.key == "error.lobby_full"


async def test_a_timed_out_seat_is_played_by_the_ai(
    service: TableService, clock: FakeClock
) -> None:
    table = await open_race(service, humans=2, turn_seconds=120)
    move, turn = await random_move(service, table.id, ALICE, Rng(9))
    await service.submit(table.id, ALICE, move, turn)
    assert await service.fire_due() == []
    clock.advance(119)
    assert await service.fire_due() == []
    clock.advance(2)
    updates = await service.fire_due()
    assert len(updates) == 1 and updates[0].resolved and updates[0].seat == "B"
    assert (await service.table(table.id)).row.deadline == clock.now() + 120


async def test_a_timed_out_seat_resets_when_the_race_says_so(
    service: TableService, clock: FakeClock
) -> None:
    await open_race(service, humans=2, turn_seconds=60, timeout_policy="reset")
    clock.advance(61)
    updates = await service.fire_due()
    assert len(updates) == 2
    last = updates[-1].turns[0]
    revealed = [event for event in last.events if event.type == "revealed"]
    assert all(event.move.is_reset for event in revealed)


async def test_reminders_at_half_time_and_near_the_end(
    service: TableService, clock: FakeClock
) -> None:
    table = await open_race(service, humans=2, turn_seconds=100)
    assert await service.next_wakeup() == clock.now() + 50
    clock.advance(49)
    assert await service.reminders_due() == []
    clock.advance(1)
    due = await service.reminders_due()
    assert [(t.id, number) for t, number in due] == [(table.id, 1)]
    assert await service.reminders_due() == []
    clock.advance(40)
    assert [number for _, number in await service.reminders_due()] == [2]
    assert await service.next_wakeup() == clock.now() + 10


async def test_two_processes_send_each_reminder_once(db_path: str, clock: FakeClock) -> None:
    first = await TableService.create(db_path, clock=clock, choose_action=first_choice)
    second = await TableService.create(db_path, clock=clock, choose_action=first_choice)
    try:
        table = await open_race(first, humans=2, turn_seconds=100)
        clock.advance(50)
        due = await asyncio.gather(first.reminders_due(), second.reminders_due())
        assert [(t.id, number) for each in due for t, number in each] == [(table.id, 1)]
        clock.advance(40)
        due = await asyncio.gather(second.reminders_due(), first.reminders_due())
        assert [(t.id, number) for each in due for t, number in each] == [(table.id, 2)]
    finally:
        await first.close()
        await second.close()


async def test_leaving_hands_the_chariot_to_an_ai_seat(service: TableService) -> None:
    table = await open_race(service, humans=3)
    update = await service.leave_game(table.id, CAROL)
    seat = update.table.seat("C")
    assert seat.is_ai and seat.ai_level == "strategic"
    await service.play_ai_seats(table.id)
    _, view = await service.view_for(table.id, ALICE)
    assert "C" not in view.waiting_for
    await service.leave_game(table.id, BOB)
    last = await service.leave_game(table.id, ALICE)
    assert last.table.status == "abandoned"


async def test_the_host_substitutes_a_member_into_a_seat(service: TableService) -> None:
    table = await open_race(service, humans=2, ai=1)
    with pytest.raises(ServiceError):
        await service.substitute(table.id, BOB, "C", MALLORY, "mallory")
    update = await service.substitute(table.id, ALICE, "C", MALLORY, "mallory")
    assert update.table.seat("C").user_id == MALLORY
    with pytest.raises(ServiceError) as seated:
        await service.substitute(table.id, ALICE, "B", MALLORY, "mallory")
    assert seated.value.key == "error.already_seated"


async def test_a_read_begun_before_a_substitution_does_not_cache_the_old_seats(
    db_path: str, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reader has the seats as they were when the host substitutes a member; the reader
    finishes after the substitution cleared the cache: what it read is not kept."""
    first = await TableService.create(db_path, clock=clock, choose_action=first_choice)
    table = await open_race(first, humans=2, ai=1)
    await first.close()
    service = await TableService.create(db_path, clock=clock, choose_action=first_choice)
    read_seats = service.storage.seats
    seats_read, go_on = asyncio.Event(), asyncio.Event()

    async def seats_then_wait(table_id: int) -> list[SeatRow]:
        seats = await read_seats(table_id)
        if not seats_read.is_set():
            seats_read.set()
            await go_on.wait()
        return seats

    monkeypatch.setattr(service.storage, "seats", seats_then_wait)
    reader = asyncio.create_task(service.table(table.id))
    await seats_read.wait()
    update = await service.substitute(table.id, ALICE, "C", MALLORY, "mallory")
    go_on.set()
    assert (await reader).seat("C").is_ai  # read before the substitution: the old seats
    assert update.table.seat("C").user_id == MALLORY
    assert (await service.table(table.id)).seat("C").user_id == MALLORY
    await service.close()


async def test_announcements_read_while_a_turn_is_stored_show_the_new_turn(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last move of a turn is committed, its new board pending; the announcer reads the
    pending posts while the service is still re-reading the row it stored: the board is
    drawn from the game as stored (turn 2), never from the game before the move (turn 1),
    which would look superseded and be dropped unposted."""
    table = await open_race(service, humans=2)
    move, turn = await random_move(service, table.id, ALICE, Rng(1))
    await service.submit(table.id, ALICE, move, turn)
    await service.announcements(table.id)  # the cache holds turn 1's game
    read_table = service.storage.table
    stored, go_on = asyncio.Event(), asyncio.Event()

    async def read_then_wait(table_id: int) -> Any:
        row = await read_table(table_id)
        if row is not None and row.turn == 2 and not stored.is_set():
            stored.set()
            await go_on.wait()
        return row

    monkeypatch.setattr(service.storage, "table", read_then_wait)
    bob_move, _ = await random_move(service, table.id, BOB, Rng(2))
    mover = asyncio.create_task(service.submit(table.id, BOB, bob_move, turn))
    await stored.wait()
    monkeypatch.setattr(service.storage, "table", read_table)
    pending = await service.announcements(table.id)
    go_on.set()
    assert (await mover).resolved
    new_boards = [a for a in pending if a.row.kind == "board" and a.row.turn == 2]
    assert [a.view.turn for a in new_boards] == [2]


async def test_announcements_read_between_a_commit_and_its_return_show_the_new_turn(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database has committed the turn's last move, and before the service hears so
    (the commit runs off the event loop) the announcer reads the pending posts: the new
    board is drawn from the game as stored, not from the game cached before the move."""
    table = await open_race(service, humans=2)
    move, turn = await random_move(service, table.id, ALICE, Rng(1))
    await service.submit(table.id, ALICE, move, turn)
    await service.announcements(table.id)  # the cache holds turn 1's game
    store_actions = service.storage.store_actions
    read_meanwhile: list[Announcement] = []

    async def store_then_read(stored: Sequence[StoredAction]) -> None:
        await store_actions(stored)
        if stored[-1].turn == 2:
            read_meanwhile.extend(await service.announcements(table.id))

    monkeypatch.setattr(service.storage, "store_actions", store_then_read)
    bob_move, _ = await random_move(service, table.id, BOB, Rng(2))
    assert (await service.submit(table.id, BOB, bob_move, turn)).resolved
    new_boards = [a for a in read_meanwhile if a.row.kind == "board" and a.row.turn == 2]
    assert [a.view.turn for a in new_boards] == [2]


async def test_announcements_read_between_a_start_and_its_return_include_the_first_board(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The start is committed and, before the service hears so, the announcer reads the
    pending posts: the first board is there, drawn from the game as stored (the lobby
    cached before had no game and its board was left for a later sweep)."""
    table = await service.open_lobby(
        game="charioteer",
        host_id=ALICE,
        host_name="alice",
        settings=race_settings(seats=2),
        guild_id=1,
        channel_id=2,
    )
    await service.join(table.id, BOB, "bob")
    await service.table(table.id)  # the lobby is cached
    replace_seats = service.storage.replace_seats
    read_meanwhile: list[Announcement] = []

    async def replace_then_read(*args: Any, **kwargs: Any) -> None:
        await replace_seats(*args, **kwargs)
        read_meanwhile.extend(await service.announcements(table.id))

    monkeypatch.setattr(service.storage, "replace_seats", replace_then_read)
    await service.start(table.id, ALICE)
    assert [(a.row.kind, a.view.turn) for a in read_meanwhile] == [("board", 1)]


async def test_a_restart_resumes_ai_seats_and_pending_announcements(
    db_path: Path, clock: FakeClock
) -> None:
    first = await TableService.create(str(db_path), clock=clock, choose_action=first_choice)
    table = await first.open_lobby(
        game="charioteer", host_id=ALICE, host_name="alice", settings=TableSettings(seats=2)
    )
    await first.add_ai(table.id, ALICE, "greedy")
    await first.start(table.id, ALICE)
    await first.close()
    second = await TableService.create(str(db_path), clock=clock, choose_action=first_choice)
    assert await second.tables_to_resume() == [table.id]
    await second.play_ai_seats(table.id)
    assert [a.row.kind for a in await second.announcements(table.id)] == ["board"]
    for announcement in await second.announcements(table.id):
        await second.announced(announcement, None)
    assert await second.tables_to_resume() == []
    move, turn = await random_move(second, table.id, ALICE, Rng(3))
    await second.submit(table.id, ALICE, move, turn)
    assert await second.tables_to_resume() == [table.id]
    for announcement in await second.announcements(table.id):
        await second.announced(announcement, None)
    await second.play_ai_seats(table.id)
    assert await second.tables_to_resume() == []
    await second.close()


async def test_a_failing_ai_seat_resets_instead_of_stalling_the_race(
    db_path: Path, clock: FakeClock
) -> None:
    def broken(host: object, level: str, view: object, rng: Rng) -> Move:
        raise RuntimeError("the policy broke")

    service = await TableService.create(str(db_path), clock=clock, choose_action=broken)
    table = await service.open_lobby(
        game="charioteer", host_id=ALICE, host_name="alice", settings=TableSettings(seats=2)
    )
    await service.add_ai(table.id, ALICE, "strategic")
    await service.start(table.id, ALICE)
    [update] = await service.play_ai_seats(table.id)
    assert update.stored and update.seat == "B"
    committed = (await service.game(table.id)).state.commit_of("B")
    assert committed is not None and committed.is_reset
    await service.close()


async def test_a_lobby_stores_its_laps_even_when_they_are_the_default(
    service: TableService,
) -> None:
    table = await service.open_lobby(
        game="charioteer", host_id=ALICE, host_name="alice", settings=TableSettings(seats=2)
    )
    assert table.settings.options == {"laps": 3}


async def test_an_announcement_says_what_was_true_when_its_step_was_stored(
    service: TableService, db_path: str, clock: FakeClock
) -> None:
    """A turn resolves and its posts wait; then a seat changes hands and the next turn is
    played: the waiting posts still name the seats, the waiting players and the position
    of their own moment, and the reveal tells the step that made it; also as read by
    another process (or after a restart), from the snapshots stored with them."""
    table = await open_race(service, humans=2)
    for first in await service.announcements(table.id):
        await service.announced(first, None)
    for user, seed in ((ALICE, 1), (BOB, 2)):
        move, turn = await random_move(service, table.id, user, Rng(seed))
        await service.submit(table.id, user, move, turn)
    await service.leave_game(table.id, BOB)
    await service.play_ai_seats(table.id)
    move, turn = await random_move(service, table.id, ALICE, Rng(3))
    await service.submit(table.id, ALICE, move, turn)
    reveal, board, *later = await service.announcements(table.id)
    assert (reveal.row.kind, reveal.row.turn, board.row.kind, board.row.turn) == (
        "reveal",
        1,
        "board",
        2,
    )
    for announcement in (reveal, board):
        assert announcement.table.seat("B").name == "user22"  # not "user22 (AI)"
        assert announcement.table.row.turn == 2
        assert [seat.seat for seat in announcement.table.waiting_humans()] == ["A", "B"]
    assert reveal.report is not None and reveal.report.turn == 1
    assert board.view.turn == 2 and reveal.view.turn == 2
    assert [(a.row.kind, a.row.turn, a.view.turn) for a in later] == [
        ("reveal", 2, 3),
        ("board", 3, 3),
    ]
    assert later[0].table.seat("B").name == "user22 (AI)"
    assert (await service.report(table.id, reveal.row.seq)).events == reveal.report.events
    elsewhere = await TableService.create(db_path, clock=clock)
    try:
        read = await elsewhere.announcements(table.id)
    finally:
        await elsewhere.close()
    assert [(a.row.id, a.table, a.report) for a in read] == [
        (a.row.id, a.table, a.report) for a in (reveal, board, *later)
    ]
    assert [a.view.turn for a in read] == [2, 2, 3, 3]


async def test_an_announcement_stored_before_snapshots_is_drawn_from_the_table(
    service: TableService,
) -> None:
    """A post stored before announcements kept their snapshot (an upgraded database) is
    drawn from the table as it is now."""
    table = await open_race(service, humans=2)
    await service.storage.write_with(
        lambda db: db.execute("UPDATE outbox SET snapshot = NULL").close()
    )
    [board] = await service.announcements(table.id)
    assert board.row.snapshot is None
    assert (board.row.kind, board.view.turn, board.table.row.turn) == ("board", 1, 1)
