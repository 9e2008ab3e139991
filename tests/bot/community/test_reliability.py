"""A member's reliability in a server: the share of finished games they played to the end
without a time-out, the games they left, and a tournament's minimum to sign up."""

from __future__ import annotations

import pytest

from bot.clock import FakeClock
from bot.community.desk import TournamentDesk
from bot.community.reliability import Reliability, check_reliable_enough, reliability
from bot.community.tournament import TournamentSettings
from bot.games.base import ServiceError
from bot.service import TableService
from engine.core import Rng
from tests.bot.test_service import ALICE, BOB, CAROL, open_race, play_to_the_end


async def test_reliability_counts_time_outs_and_games_left(
    service: TableService, clock: FakeClock
) -> None:
    """Three finished races: one played cleanly by all, one where bob's time ran out, one
    that carol left mid-game (handed to the AI); a fourth still running that bob left."""
    storage = service.storage
    clean = await open_race(service, humans=2, laps=1)
    await play_to_the_end(service, clean.id, Rng(1))

    late = await open_race(service, humans=2, laps=1, turn_seconds=60)
    _, view = await service.view_for(late.id, ALICE)
    await service.submit(late.id, ALICE, view.legal_moves(discards=False)[0], view.turn)
    clock.advance(61)
    await service.fire_due()
    await play_to_the_end(service, late.id, Rng(2))

    left = await open_race(service, humans=3, laps=1)
    await service.leave_game(left.id, CAROL)
    await play_to_the_end(service, left.id, Rng(3))

    running = await open_race(service, humans=2, laps=1)
    await service.leave_game(running.id, BOB)

    statuses = [(await service.table(t.id)).status for t in (clean, late, left, running)]
    assert statuses == ["finished", "finished", "finished", "running"]
    assert await reliability(storage, 1, ALICE) == Reliability(finished=3, clean=3, left=0)
    assert await reliability(storage, 1, BOB) == Reliability(finished=3, clean=2, left=1)
    assert await reliability(storage, 1, CAROL) == Reliability(finished=1, clean=0, left=1)
    assert (await reliability(storage, 1, BOB)).percent == 66
    assert await reliability(storage, 2, ALICE) == Reliability(finished=0, clean=0, left=0)


def test_a_minimum_refuses_whoever_is_below_it_and_says_why() -> None:
    check_reliable_enough(Reliability(finished=4, clean=3, left=0), 75)
    check_reliable_enough(Reliability(finished=0, clean=0, left=2), 90)  # no game yet
    check_reliable_enough(Reliability(finished=4, clean=0, left=3), None)
    with pytest.raises(ServiceError) as refused:
        check_reliable_enough(Reliability(finished=4, clean=2, left=1), 75)
    assert refused.value.key == "error.not_reliable_enough"
    assert refused.value.params == {"minimum": 75, "share": 50, "clean": 2, "count": 4}


async def test_a_tournament_with_a_minimum_refuses_an_unreliable_sign_up(
    service: TableService, clock: FakeClock
) -> None:
    late = await open_race(service, humans=2, laps=1, turn_seconds=60)
    clock.advance(61)
    await service.fire_due()
    await play_to_the_end(service, late.id, Rng(4))
    desk = TournamentDesk(service.storage, clock=clock)
    record = await desk.create(
        guild_id=1,
        game="charioteer",
        name="Cup",
        host_id=CAROL,
        settings=TournamentSettings(table_size=2, min_table=2, min_reliability=80),
        channel_id=2,
    )
    with pytest.raises(ServiceError) as refused:
        await desk.sign_up(record.id, ALICE, "alice")
    assert refused.value.key == "error.not_reliable_enough"
    signed = await desk.sign_up(record.id, CAROL, "carol")  # no finished game yet
    assert list(signed.state.entrants) == ["user:33"]
