"""Each member's notice choices: the one decision (ping, DM, none, held by quiet hours in
their own time zone, across midnight and daylight-saving changes), their own reminder
cadence, and the notices owed later, stored and taken once (both backends)."""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest

from bot.clock import FakeClock
from bot.games.base import ServiceError
from bot.notices import NoticeChoices, delivery, next_reminder
from bot.service import TableService
from tests.bot.test_service import ALICE, BOB, open_race

ROME = zoneinfo.ZoneInfo("Europe/Rome")
NEW_YORK = zoneinfo.ZoneInfo("America/New_York")
NIGHT_IN_ROME = NoticeChoices(time_zone="Europe/Rome", quiet_from=23, quiet_until=7)


def at(zone: zoneinfo.ZoneInfo, *when: int) -> float:
    """A moment on a wall clock of ``zone`` (year, month, day, hour[, minute])."""
    return dt.datetime(*when, tzinfo=zone).timestamp()  # type: ignore[misc]


def test_quiet_hours_are_read_on_the_members_own_clock() -> None:
    """23:00-07:00 in Rome: 22:30 UTC in winter is 23:30 there (held until 07:00 Rome,
    06:00 UTC), while the same moment is 17:30 in New York, not quiet for a member there."""
    moment = dt.datetime(2026, 1, 14, 22, 30, tzinfo=dt.UTC).timestamp()
    assert NIGHT_IN_ROME.quiet_end(moment) == at(ROME, 2026, 1, 15, 7)
    assert at(ROME, 2026, 1, 15, 7) == dt.datetime(2026, 1, 15, 6, tzinfo=dt.UTC).timestamp()
    in_new_york = NoticeChoices(time_zone="America/New_York", quiet_from=23, quiet_until=7)
    assert in_new_york.quiet_end(moment) is None
    assert NIGHT_IN_ROME.quiet_end(at(ROME, 2026, 1, 15, 6, 59)) == at(ROME, 2026, 1, 15, 7)
    assert NIGHT_IN_ROME.quiet_end(at(ROME, 2026, 1, 15, 7)) is None
    assert NIGHT_IN_ROME.quiet_end(at(ROME, 2026, 1, 14, 22, 59)) is None


def test_quiet_hours_follow_a_daylight_saving_change() -> None:
    """Rome springs forward on 29 March 2026 (02:00 → 03:00) and falls back on 25
    October: the quiet hours end at 07:00 on the wall clock either way, an hour of UTC
    earlier in summer; a night shorter or longer by an hour is held that much less or
    more."""
    spring_night = at(ROME, 2026, 3, 29, 1)
    end = NIGHT_IN_ROME.quiet_end(spring_night)
    assert end == at(ROME, 2026, 3, 29, 7)
    assert end == dt.datetime(2026, 3, 29, 5, tzinfo=dt.UTC).timestamp()
    assert end is not None and end - spring_night == 5 * 3600  # 01:00 → 07:00, less an hour
    autumn_night = at(ROME, 2026, 10, 25, 1)
    end = NIGHT_IN_ROME.quiet_end(autumn_night)
    assert end == dt.datetime(2026, 10, 25, 6, tzinfo=dt.UTC).timestamp()
    assert end is not None and end - autumn_night == 7 * 3600  # the hour 02:00 comes twice


def test_quiet_hours_ending_on_an_hour_the_clocks_skip() -> None:
    """Quiet hours until 02:00 in New York on the night the clocks jump from 02:00 to
    03:00 end when the clocks jump."""
    choices = NoticeChoices(time_zone="America/New_York", quiet_from=22, quiet_until=2)
    end = choices.quiet_end(at(NEW_YORK, 2026, 3, 8, 1))
    assert end == dt.datetime(2026, 3, 8, 7, tzinfo=dt.UTC).timestamp()  # 03:00 EDT


def test_each_mode_reaches_the_member_its_way() -> None:
    noon = at(ROME, 2026, 1, 15, 12)

    def reached(choices: NoticeChoices, *, dm_on: bool = False, dm_closed: bool = False) -> str:
        told = delivery(choices, dm_on=dm_on, dm_closed=dm_closed, now=noon, last_call=False)
        return "+".join(way for way, on in (("ping", told.ping), ("dm", told.dm)) if on)

    assert reached(NoticeChoices()) == "ping"  # as before any choice
    assert reached(NoticeChoices(), dm_on=True) == "ping+dm"  # as before, with /game dm
    assert reached(NoticeChoices(mode="ping"), dm_on=True) == "ping"
    assert reached(NoticeChoices(mode="dm")) == "dm"
    assert reached(NoticeChoices(mode="dm"), dm_closed=True) == "ping"
    assert reached(NoticeChoices(mode="none"), dm_on=True) == ""


def test_quiet_hours_hold_every_notice_but_the_last_call() -> None:
    night = at(ROME, 2026, 1, 15, 2)
    choices = NoticeChoices(mode="dm", time_zone="Europe/Rome", quiet_from=23, quiet_until=7)
    held = delivery(choices, dm_on=False, dm_closed=False, now=night, last_call=False)
    assert (held.ping, held.dm, held.held_until) == (False, False, at(ROME, 2026, 1, 15, 7))
    last = delivery(choices, dm_on=False, dm_closed=False, now=night, last_call=True)
    assert (last.ping, last.dm, last.held_until) == (False, True, None)
    silent = NoticeChoices(mode="none", time_zone="Europe/Rome", quiet_from=23, quiet_until=7)
    told = delivery(silent, dm_on=True, dm_closed=False, now=night, last_call=True)
    assert (told.ping, told.dm, told.held_until) == (False, False, None)


def test_a_members_own_reminders_come_every_few_hours_and_wait_for_the_morning() -> None:
    evening = at(ROME, 2026, 1, 15, 20)
    every_two = NoticeChoices(remind_hours=2)
    assert next_reminder(every_two, evening) == evening + 2 * 3600
    assert next_reminder(NoticeChoices(), evening) is None
    assert next_reminder(NoticeChoices(mode="none", remind_hours=2), evening) is None
    quiet = NoticeChoices(remind_hours=4, time_zone="Europe/Rome", quiet_from=23, quiet_until=7)
    assert next_reminder(quiet, evening) == at(ROME, 2026, 1, 16, 7)  # 00:00 falls quiet


@pytest.mark.parametrize(
    "choices",
    [
        NoticeChoices(mode="email"),
        NoticeChoices(time_zone="Mars/Olympus_Mons"),
        NoticeChoices(time_zone="Europe/Rome", quiet_from=23),
        NoticeChoices(time_zone="Europe/Rome", quiet_from=5, quiet_until=5),
        NoticeChoices(time_zone="Europe/Rome", quiet_from=5, quiet_until=24),
        NoticeChoices(quiet_from=23, quiet_until=7),
        NoticeChoices(remind_hours=0),
        NoticeChoices(remind_hours=169),
    ],
)
def test_choices_that_make_no_sense_are_refused(choices: NoticeChoices) -> None:
    with pytest.raises(ServiceError):
        choices.checked()


async def test_choices_are_stored_per_member(service: TableService) -> None:
    store = service.notices
    assert (await store.member(ALICE)).choices == NoticeChoices()
    await service.storage.set_dm(ALICE, True)
    await service.storage.mark_dm_closed(ALICE)
    chosen = NoticeChoices(
        mode="dm", time_zone="Europe/Rome", quiet_from=23, quiet_until=7, remind_hours=6
    )
    await store.choose(ALICE, chosen)
    alice = await store.member(ALICE)
    assert alice.choices == chosen
    assert alice.dm_on and not alice.dm_closed  # choosing DMs again tries them again
    assert (await store.member(BOB)).choices == NoticeChoices()
    with pytest.raises(ServiceError):
        await store.choose(BOB, NoticeChoices(time_zone="Nowhere/Land"))
    assert (await store.member(BOB)).choices == NoticeChoices()


async def test_a_notice_owed_later_goes_out_once_and_only_for_its_turn(
    db_path: str, service: TableService, clock: FakeClock
) -> None:
    table = await open_race(service, humans=2, turn_seconds=None)
    await service.notices.owe(table.id, BOB, table.row.turn, clock.now() + 600)
    assert await service.next_wakeup() == clock.now() + 600
    assert await service.member_notices_due() == []
    clock.advance(600)
    other = await TableService.create(db_path, clock=clock)
    try:
        first, second = await service.member_notices_due(), await other.member_notices_due()
    finally:
        await other.close()
    assert [(t.id, user) for t, user in first] + [(t.id, user) for t, user in second] == [
        (table.id, BOB)
    ]
    await service.notices.owe(table.id, BOB, table.row.turn - 1, clock.now())
    assert await service.member_notices_due() == []  # a turn gone by
    assert await service.next_wakeup() is None


async def test_turning_dms_on_brings_back_the_default_notices(service: TableService) -> None:
    """``/game dm`` on after choosing pings only: a ping and a DM again; off after
    choosing DMs only: a ping again; off after choosing none: still none."""
    store, storage = service.notices, service.storage
    await store.choose(ALICE, NoticeChoices(mode="ping", remind_hours=3))
    await storage.set_dm(ALICE, True)
    alice = await store.member(ALICE)
    assert alice.choices == NoticeChoices(remind_hours=3)
    told = alice.delivery(0.0)
    assert (told.ping, told.dm) == (True, True)
    await store.choose(ALICE, NoticeChoices(mode="dm"))
    await storage.set_dm(ALICE, False)
    told = (await store.member(ALICE)).delivery(0.0)
    assert (told.ping, told.dm) == (True, False)
    await store.choose(BOB, NoticeChoices(mode="none"))
    await storage.set_dm(BOB, False)
    assert (await store.member(BOB)).choices.mode == "none"


@pytest.mark.parametrize(
    ("quiet", "opened", "hours", "ends"),
    [
        ((23, 7), (2026, 1, 15, 3, 0), 12, (2026, 1, 15, 19, 0)),
        ((23, 7), (2026, 1, 15, 20, 17), 12, (2026, 1, 16, 16, 17)),
        ((None, None), (2026, 1, 15, 3, 0), 12, (2026, 1, 15, 15, 0)),
        ((1, 5), (2026, 3, 29, 0, 30), 2, (2026, 3, 29, 6, 30)),  # spring forward at 2:00
        ((8, 7), (2026, 1, 15, 20, 0), 12, (2026, 1, 18, 20, 0)),  # capped at 3 days
    ],
)
def test_waking_hours_leave_the_quiet_hours_out_and_are_capped(
    quiet: tuple[int | None, int | None],
    opened: tuple[int, ...],
    hours: int,
    ends: tuple[int, ...],
) -> None:
    rome = zoneinfo.ZoneInfo("Europe/Rome")
    choices = NoticeChoices(
        time_zone="Europe/Rome" if quiet[0] is not None else None,
        quiet_from=quiet[0],
        quiet_until=quiet[1],
    )
    start = dt.datetime(*opened, tzinfo=rome).timestamp()
    end = choices.waking_after(start, hours, 3 * 86400)
    assert dt.datetime.fromtimestamp(end, rome) == dt.datetime(*ends, tzinfo=rome)
