"""The host's seat rules, on both databases: a table whose seats are assigned when it
opens (a tournament's), and a change of hands that withdraws the seat's unrevealed move
in the same transaction."""

from __future__ import annotations

import pytest

from bot.clock import FakeClock
from bot.service import ServiceError, TableService, TableSettings
from tests.bot.conftest import first_choice
from tests.bot.test_service import ALICE, BOB, MALLORY, open_race

ORGANISER = 7
PLAYERS = [(100 + number, f"player {number}") for number in range(12)]


async def test_assigned_seats_keep_their_order_and_nobody_joins_or_leaves(
    service: TableService,
) -> None:
    """Twelve mapmakers seated by the pairing, at one instant (the clock does not move):
    the seats follow the pairing's order, the organiser hosts without a seat, and the
    lobby takes no join, leave or AI seat."""
    table = await service.open_lobby(
        game="cartographers",
        host_id=ORGANISER,
        host_name="Cup",
        settings=TableSettings(seats=4),
        guild_id=1,
        channel_id=2,
        seated=PLAYERS,
    )
    assert table.settings.assigned and table.settings.seats == 12
    assert table.seat_of(ORGANISER) is None
    refusals = [
        service.join(table.id, MALLORY, "mallory"),
        service.leave_lobby(table.id, PLAYERS[3][0]),
        service.add_ai(table.id, ORGANISER, "random"),
        service.remove_ai(table.id, ORGANISER),
    ]
    for refused in refusals:
        with pytest.raises(ServiceError) as caught:
            await refused
        assert caught.value.key == "error.seats_assigned"
    with pytest.raises(ServiceError) as caught:
        await service.start(table.id, PLAYERS[0][0])
    assert caught.value.key == "error.host_only"
    started = (await service.start(table.id, ORGANISER)).table
    assert [
        (seat.seat, seat.user_id) for seat in sorted(started.seats, key=lambda s: int(s.seat))
    ] == [(str(number + 1), user) for number, (user, _) in enumerate(PLAYERS)]
    assert await service.storage.seat_holders(table.id) == {
        user: str(number + 1) for number, (user, _) in enumerate(PLAYERS)
    }


async def test_a_change_of_hands_withdraws_the_seats_move_with_it(
    service: TableService, db_path: str
) -> None:
    """The AI of seat C chose its move; the host seats mallory there: the move is
    withdrawn in the same transaction as the seats change, so the table read anew (a
    restart) has mallory in C owing a move, and her view holds no move of C's."""
    table = await open_race(service, humans=2, ai=1)
    _, before = await service.view_for(table.id, None)
    assert "C" not in before.waiting_for
    update = await service.substitute(table.id, ALICE, "C", MALLORY, "mallory")
    assert update.stored and update.seat == "C"
    await service.close()
    again = await TableService.create(db_path, clock=FakeClock(), choose_action=first_choice)
    try:
        reread, view = await again.view_for(table.id, MALLORY)
        assert reread.seat("C").user_id == MALLORY
        assert view.my_move is None and set(view.waiting_for) == {"A", "B", "C"}
        kinds = await again.storage.read(
            "SELECT seat, kind, source, by_user FROM actions WHERE table_id = ? ORDER BY seq",
            (table.id,),
        )
        assert tuple(kinds[-1]) == ("C", "withdraw", "substitution", ALICE)
        assert (await again.storage.seat_holders(table.id))[MALLORY] == "C"
        assert BOB in await again.storage.seat_holders(table.id)
    finally:
        await again.close()
