"""Tournaments as stored logs of events: Swiss rounds to a champion, heats and a final,
single elimination, points and tiebreaks, drop-outs, the organiser's powers, and a log that
replays to the same tournament and refuses a forged pairing."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.clock import FakeClock
from bot.community.desk import TournamentDesk, TournamentRecord
from bot.community.pictures import MARGIN, standings_picture
from bot.community.tournament import (
    FINISHED,
    ROUND,
    RUNNING,
    SIGNUP,
    Event,
    Format,
    Tournament,
    TournamentError,
    TournamentSettings,
)
from bot.storage import Storage
from engine.core import Rng
from engine.drawing import MIN_TEXT, PHONE_WIDTH, text_width
from tests.bot.community.test_ratings import finish

HOST = 1


@pytest.fixture
async def desk(database: str) -> AsyncIterator[TournamentDesk]:
    storage = await Storage.open(database)
    yield TournamentDesk(storage, FakeClock())
    await storage.close()


async def field(desk: TournamentDesk, count: int, **settings: object) -> TournamentRecord:
    record = await desk.create(
        guild_id=7,
        game="charioteer",
        name="Cup",
        host_id=HOST,
        settings=TournamentSettings(**settings),  # type: ignore[arg-type]
    )
    for user in range(1, count + 1):
        record = await desk.sign_up(record.id, user, f"player{user}")
    return record


async def play_round(desk: TournamentDesk, record: TournamentRecord, rng: Rng) -> TournamentRecord:
    number = len(record.state.rounds)
    for index, table in enumerate(record.state.rounds[-1].pairing.tables):
        order = [table[i] for i in rng.permutation(len(table))]
        places = {player: place for place, player in enumerate(order, start=1)}
        record = await desk.report(record.id, number, index, places)
    return record


async def test_a_swiss_tournament_of_eight_to_its_champion(desk: TournamentDesk) -> None:
    record = await field(desk, 8, rounds=3)
    assert record.state.status == SIGNUP
    record = await desk.start(record.id, HOST)
    rng = Rng(4)
    for number in range(1, 4):
        assert record.state.status == RUNNING and len(record.state.rounds) == number
        pairing = record.state.rounds[-1].pairing
        seated = sorted(p for table in pairing.tables for p in table)
        assert seated == sorted(f"user:{u}" for u in range(1, 9))
        assert [len(table) for table in pairing.tables] == [4, 4]
        record = await play_round(desk, record, rng)
    assert record.state.status == FINISHED
    standings = record.state.standings()
    assert record.state.champion() == standings[0].player
    assert sum(row.points for row in standings) == 3 * 2 * (3 + 2 + 1 + 0)
    assert [row.games for row in standings] == [3] * 8
    # the stored log replays to the same tournament
    replayed = Tournament.replay(record.state.settings, await desk.events(record.id))
    assert replayed.standings() == standings
    picture = standings_picture("Cup", standings)
    assert picture.smallest_text() >= MIN_TEXT and picture.says("player")


async def test_a_forged_pairing_is_refused(desk: TournamentDesk) -> None:
    record = await desk.start((await field(desk, 8)).id, HOST)
    record = await play_round(desk, record, Rng(1))
    events = await desk.events(record.id)
    forged = [
        *events[:-1],
        Event(ROUND, {"tables": [[f"user:{u}" for u in range(1, 9)]], "byes": []}),
    ]
    with pytest.raises(TournamentError) as refused:
        Tournament.replay(record.state.settings, forged)
    assert refused.value.key == "error.tournament_bad_pairing"


def test_points_per_place_ties_share_and_smaller_tables_score_the_last_places() -> None:
    state = Tournament(TournamentSettings())
    assert state.settings.points == (3.0, 2.0, 1.0, 0.0)
    assert state.settings.bye_points == 1.5
    assert state.points_for(1, 4, 1) == 3.0
    assert state.points_for(1, 4, 2) == 2.5
    assert state.points_for(1, 3, 1) == 2.0
    assert state.points_for(3, 3, 1) == 0.0
    custom = Tournament(TournamentSettings(points=(10, 6, 3, 0), bye_points=4))
    assert custom.points_for(2, 4, 3) == 3.0
    assert custom.settings.bye_points == 4


def test_ties_in_points_go_to_opponents_points_then_rating() -> None:
    state = Tournament(TournamentSettings(table_size=2, min_table=2, rounds=2))
    for player, rating in (("a", 1.0), ("b", 2.0), ("c", 3.0), ("d", 4.0)):
        state.apply(Event("signed_up", {"player": player, "name": player, "rating": rating}))
    state.apply(Event("started"))
    first = state.next_round()
    assert first is not None and first.tables == (("d", "c"), ("b", "a"))
    state.apply(Event(ROUND, {"tables": [list(t) for t in first.tables], "byes": []}))
    state.apply(Event("result", {"round": 1, "table": 0, "places": {"d": 1, "c": 2}}))
    state.apply(Event("result", {"round": 1, "table": 1, "places": {"b": 1, "a": 1}}))
    # d 1, b and a 0.5 each (a draw), c 0: b and a tie on points and opponents' points
    assert [row.player for row in state.standings()] == ["d", "b", "a", "c"]


async def test_heats_and_a_final(desk: TournamentDesk) -> None:
    record = await desk.start((await field(desk, 9, format=Format.HEATS)).id, HOST)
    heats = record.state.rounds[0].pairing
    assert [len(table) for table in heats.tables] == [3, 3, 3]
    record = await play_round(desk, record, Rng(2))
    final = record.state.rounds[1].pairing
    winners = {
        player
        for index, table in enumerate(heats.tables)
        for player in table
        if record.state.rounds[0].results[index][player] == 1
    }
    assert len(final.tables) == 1 and set(final.tables[0]) == winners
    record = await play_round(desk, record, Rng(3))
    assert record.state.status == FINISHED
    champion = record.state.champion()
    assert champion is not None and record.state.rounds[1].results[0][champion] == 1


async def test_single_elimination_with_byes_and_a_draw_to_the_higher_seed(
    desk: TournamentDesk,
) -> None:
    storage = desk.storage
    await finish(storage, [(1, None, 1), (2, None, 2)], 1.0, guild=7)  # user 1 seeded first
    record = await field(desk, 6, format=Format.ELIMINATION, table_size=2, min_table=2)
    record = await desk.start(record.id, HOST)
    first = record.state.rounds[0].pairing
    assert first.byes[0] == "user:1" and len(first.tables) == 2
    table = first.tables[0]
    record = await desk.report(record.id, 1, 0, dict.fromkeys(table, 1))
    record = await play_round_rest(desk, record)
    assert record.state.rounds[1].pairing.tables[0][0] == "user:1"
    assert min(table, key=lambda p: (-record.state.entrants[p].rating, p)) in {
        p for t in record.state.rounds[1].pairing.tables for p in t
    }
    while record.state.status != FINISHED:
        record = await play_round(desk, record, Rng(len(record.state.rounds)))
    assert len(record.state.rounds) == 3


async def play_round_rest(desk: TournamentDesk, record: TournamentRecord) -> TournamentRecord:
    play = record.state.rounds[-1]
    for index, table in enumerate(play.pairing.tables):
        if index not in play.results:
            places = {player: place for place, player in enumerate(table, start=1)}
            record = await desk.report(record.id, len(record.state.rounds), index, places)
    return record


async def test_a_dropped_player_is_paired_no_more(desk: TournamentDesk) -> None:
    record = await desk.start((await field(desk, 8)).id, HOST)
    record = await desk.drop(record.id, 3)
    record = await play_round(desk, record, Rng(9))
    second = record.state.rounds[1].pairing
    assert "user:3" not in {p for t in second.tables for p in t} | set(second.byes)
    assert sorted(len(t) for t in second.tables) == [3, 4]


async def test_only_the_organiser_starts_removes_and_advances(desk: TournamentDesk) -> None:
    record = await field(desk, 8)
    with pytest.raises(TournamentError) as refused:
        await desk.start(record.id, 5)
    assert refused.value.key == "error.tournament_host_only"
    with pytest.raises(TournamentError):
        await desk.drop(record.id, 3, by_user=5)
    record = await desk.start(record.id, HOST)
    with pytest.raises(TournamentError):
        await desk.advance(record.id, 1, 5)
    record = await desk.advance(record.id, 1, HOST)
    assert len(record.state.rounds) == 2
    first = record.state.rounds[0]
    assert all(set(places.values()) == {1} for places in first.results.values())


async def test_an_advance_closes_only_the_round_it_names(desk: TournamentDesk) -> None:
    record = await desk.start((await field(desk, 8, rounds=3)).id, HOST)
    outcomes = await asyncio.gather(
        desk.advance(record.id, 1, HOST), desk.advance(record.id, 1, None), return_exceptions=True
    )
    (refused,) = [o for o in outcomes if isinstance(o, TournamentError)]
    assert (refused.key, refused.params) == (
        "error.tournament_round_over",
        {"round": 1, "current": 2},
    )
    record = await desk.load(record.id)
    assert [e.kind for e in record.events].count("result") == 2  # round 1's two tables
    assert len(record.state.rounds) == 2 and not record.state.rounds[1].results
    with pytest.raises(TournamentError) as ahead:
        await desk.advance(record.id, 3, HOST)
    assert (ahead.value.key, ahead.value.params) == (
        "error.tournament_round_not_begun",
        {"round": 3, "current": 2},
    )
    late = dict.fromkeys(record.state.rounds[0].pairing.tables[0], 1)
    with pytest.raises(TournamentError) as stale:
        await desk.report(record.id, 1, 0, late)
    assert stale.value.key == "error.tournament_not_this_round"
    assert (await desk.load(record.id)).events == record.events


async def test_sign_up_mistakes_are_refused_and_change_nothing(desk: TournamentDesk) -> None:
    record = await field(desk, 2)
    with pytest.raises(TournamentError) as twice:
        await desk.sign_up(record.id, 1, "again")
    assert twice.value.key == "error.tournament_already_signed_up"
    with pytest.raises(TournamentError) as few:
        await desk.start(record.id, HOST)
    assert few.value.key == "error.tournament_too_few"
    record = await desk.drop(record.id, 2)
    assert list(record.state.entrants) == ["user:1"]
    assert len(await desk.events(record.id)) == 3
    with pytest.raises(TournamentError):
        await desk.load(999)


def test_settings_are_checked() -> None:
    for bad in (
        TournamentSettings(format=Format.ELIMINATION),
        TournamentSettings(table_size=4, min_table=5),
        TournamentSettings(rounds=0),
        TournamentSettings(points=(1, 0)),
        TournamentSettings(advance=3),
    ):
        with pytest.raises(TournamentError):
            bad.checked()


def test_every_number_of_the_settings_is_checked_in_its_range() -> None:
    for bad, key in (
        (TournamentSettings(table_size=100000, min_table=99999), "tournament_table_size_range"),
        (TournamentSettings(format=Format.HEATS, rounds=10**6), "tournament_bad_rounds"),
        (TournamentSettings(max_players=10**6), "tournament_max_players_range"),
        (TournamentSettings(round_hours=0), "tournament_round_hours_range"),
        (TournamentSettings(round_hours=10**9), "tournament_round_hours_range"),
        (TournamentSettings(round_hours=float("nan")), "tournament_round_hours_range"),
        (TournamentSettings(points=(10**9, 2, 1, 0)), "tournament_points_range"),
        (TournamentSettings(points=(3, 2, float("inf"), 0)), "tournament_points_range"),
        (TournamentSettings(bye_points=-1), "tournament_points_range"),
    ):
        with pytest.raises(TournamentError) as refused:
            bad.checked()
        assert refused.value.key == f"error.{key}", bad


async def test_a_sign_up_deadline_is_at_most_thirty_days_ahead(desk: TournamentDesk) -> None:
    with pytest.raises(TournamentError) as refused:
        await desk.create(
            guild_id=7,
            game="charioteer",
            name="Cup",
            host_id=HOST,
            settings=TournamentSettings(),
            starts_at=desk.clock.now() + 10**9,
        )
    assert refused.value.key == "error.tournament_signup_hours_range"
    assert await desk.storage.read("SELECT id FROM tournaments") == []


async def test_the_same_result_reported_twice_at_once_is_stored_once(
    desk: TournamentDesk,
) -> None:
    record = await desk.start((await field(desk, 8)).id, HOST)
    table = record.state.rounds[0].pairing.tables[0]
    places = {player: place for place, player in enumerate(table, start=1)}
    outcomes = await asyncio.gather(
        desk.report(record.id, 1, 0, places),
        desk.report(record.id, 1, 0, places),
        return_exceptions=True,
    )
    assert sum(isinstance(o, TournamentRecord) for o in outcomes) == 1
    assert all(isinstance(o, TournamentRecord | TournamentError) for o in outcomes)
    events = await desk.events(record.id)
    assert [e.kind for e in events].count("result") == 1
    assert Tournament.replay(record.state.settings, events).rounds[0].results[0] == places


async def test_no_round_is_paired_while_paused_and_resuming_pairs_it(
    desk: TournamentDesk,
) -> None:
    record = await desk.start((await field(desk, 8, rounds=2)).id, HOST)
    with pytest.raises(TournamentError) as stranger:
        await desk.pause(record.id, 5)
    assert stranger.value.key == "error.tournament_host_only"
    record = await desk.pause(record.id, HOST)
    assert record.state.paused
    record = await play_round(desk, record, Rng(2))
    assert record.state.round_complete and len(record.state.rounds) == 1
    assert record.state.status == RUNNING
    with pytest.raises(TournamentError) as advancing:
        await desk.advance(record.id, 1, HOST)
    assert advancing.value.key == "error.tournament_paused"
    record = await desk.resume(record.id, HOST)
    assert not record.state.paused and len(record.state.rounds) == 2
    replayed = Tournament.replay(record.state.settings, record.events)
    assert replayed.rounds[-1].pairing == record.state.rounds[-1].pairing
    with pytest.raises(TournamentError) as again:
        await desk.resume(record.id, HOST)
    assert again.value.key == "error.tournament_not_paused"


async def test_a_forged_round_while_paused_is_refused() -> None:
    tournament = Tournament(TournamentSettings(rounds=2))
    for user in range(1, 5):
        tournament.apply(Event("signed_up", {"player": f"user:{user}", "name": "p", "rating": 0}))
    tournament.apply(Event("started"))
    tournament.apply(Event("paused"))
    first = tournament.next_round()
    assert first is not None
    with pytest.raises(TournamentError) as refused:
        tournament.apply(Event(ROUND, {"tables": [list(t) for t in first.tables], "byes": []}))
    assert refused.value.key == "error.tournament_paused"


async def test_sign_up_closes_when_full_and_a_deadline_lists_the_tournament(
    desk: TournamentDesk,
) -> None:
    record = await desk.create(
        guild_id=7,
        game="charioteer",
        name="Cup",
        host_id=HOST,
        settings=TournamentSettings(max_players=4),
        channel_id=99,
        starts_at=desk.clock.now() + 3600,
    )
    for user in range(1, 5):
        record = await desk.sign_up(record.id, user, f"player{user}")
    with pytest.raises(TournamentError) as full:
        await desk.sign_up(record.id, 5, "late")
    assert full.value.key == "error.tournament_full" and full.value.params == {"count": 4}
    assert record.channel_id == 99 and record.starts_at == desk.clock.now() + 3600
    assert await desk.due(desk.clock.now()) == []
    assert await desk.next_deadline() == record.starts_at
    assert await desk.due(desk.clock.now() + 3600) == [record.id]
    await desk.start(record.id, None)
    assert await desk.due(desk.clock.now() + 3600) == []
    assert await desk.next_deadline() is None


async def test_a_cancelled_tournament_takes_no_more_steps(desk: TournamentDesk) -> None:
    record = await field(desk, 2)
    record = await desk.cancel(record.id, None)
    assert record.state.status == "cancelled"
    for step in (desk.sign_up(record.id, 9, "late"), desk.start(record.id, HOST)):
        with pytest.raises(TournamentError) as refused:
            await step
        assert refused.value.key == "error.tournament_cancelled"


async def test_a_finished_tournament_takes_no_more_steps(desk: TournamentDesk) -> None:
    record = await desk.start(
        (await field(desk, 2, format=Format.ELIMINATION, table_size=2, min_table=2)).id, HOST
    )
    record = await play_round(desk, record, Rng(1))
    assert record.state.status == FINISHED
    for step in (
        desk.drop(record.id, 1),
        desk.drop(record.id, 2, by_user=HOST),
        desk.pause(record.id, HOST),
        desk.sign_up(record.id, 9, "late"),
    ):
        with pytest.raises(TournamentError) as refused:
            await step
        assert refused.value.key == "error.tournament_over"
    assert (await desk.load(record.id)).events == record.events


async def test_names_are_stored_as_one_plain_line_on_every_backend(desk: TournamentDesk) -> None:
    record = await desk.create(
        guild_id=7,
        game="charioteer",
        name="Cup\x00 of\udc80 champions" + "!" * 100,
        host_id=HOST,
        settings=TournamentSettings(),
    )
    record = await desk.sign_up(record.id, 5, "five\x00\ud800\n")
    assert record.name == "Cup of champions" + "!" * (80 - 16)
    assert record.state.entrants["user:5"].name == "five"
    assert (await desk.load(record.id)).name == record.name


async def test_a_tournament_is_refused_when_its_game_cannot_seat_a_table_it_could_pair(
    desk: TournamentDesk,
) -> None:
    for game, settings, refusal in (
        ("charioteer", TournamentSettings(table_size=7, min_table=6), "tournament_unseatable"),
        (
            "carcassonne",
            TournamentSettings(table_size=4, min_table=4, table={"options": {"team": True}}),
            "tournament_options_unseatable",
        ),
        ("cartographers", TournamentSettings(table_size=4, table={"options": {"x": 1}}), "unknown"),
    ):
        with pytest.raises(TournamentError) as refused:
            await desk.create(guild_id=7, game=game, name="Cup", host_id=HOST, settings=settings)
        assert refusal in refused.value.key, game
    assert refused.value.params == {"name": "x", "known": "side, ambush"}
    record = await desk.create(
        guild_id=7,
        game="cartographers",
        name="Maps",
        host_id=HOST,
        settings=TournamentSettings(table_size=12, min_table=11),
    )
    assert record.state.settings.table["options"] == {"side": "A", "ambush": "auto"}
    assert list(record.state.settings.table_sizes()) == list(range(2, 13))


async def test_steps_taken_at_the_same_moment_are_all_stored(desk: TournamentDesk) -> None:
    record = await field(desk, 0)
    signed = await asyncio.gather(
        *(desk.sign_up(record.id, user, f"p{user}") for user in range(20))
    )
    assert all(isinstance(outcome, TournamentRecord) for outcome in signed)
    record = await desk.start(record.id, HOST)
    table, other = record.state.rounds[0].pairing.tables[:2]
    places = {player: place for place, player in enumerate(table, start=1)}
    await asyncio.gather(
        desk.report(record.id, 1, 0, places),
        desk.drop(record.id, int(other[0].partition(":")[2])),
        desk.pause(record.id, HOST),
    )
    state = (await desk.load(record.id)).state
    assert state.rounds[0].results == {0: places} and state.paused
    assert not state.entrants[other[0]].active


async def test_a_step_clashing_with_another_process_is_built_again_on_the_new_log(
    desk: TournamentDesk, database: str
) -> None:
    record = await desk.start((await field(desk, 8)).id, HOST)
    table, other = record.state.rounds[0].pairing.tables
    places = {player: place for place, player in enumerate(table, start=1)}
    elsewhere = TournamentDesk(await Storage.open(database), desk.clock)  # another process
    append = desk._append
    clashes = 0

    async def append_after_another_step(*args: Any, **kwargs: Any) -> TournamentRecord:
        nonlocal clashes
        if clashes < 2:  # another process stores a step between this one's read and write
            clashes += 1
            await elsewhere.drop(record.id, int(other[clashes].partition(":")[2]))
        return await append(*args, **kwargs)

    desk._append = append_after_another_step  # type: ignore[method-assign]
    reported = await desk.report(record.id, 1, 0, places)
    await elsewhere.storage.close()
    assert reported.state.rounds[0].results == {0: places}
    kinds = [event.kind for event in await desk.events(record.id)]
    assert kinds[-3:] == ["dropped", "dropped", "result"] and kinds.count("result") == 1


def test_long_names_stay_inside_the_standings_picture() -> None:
    tournament = Tournament(TournamentSettings())
    for user in range(1, 5):
        name = f"{'W' * 31}{user}"
        tournament.apply(Event("signed_up", {"player": f"user:{user}", "name": name, "rating": 0}))
    title = f"{'W' * 80}: standings after round 1"
    picture = standings_picture(title, tournament.standings())
    (shown_title, size), *cells = picture.texts
    assert (
        shown_title.endswith("…")
        and text_width(shown_title, size, bold=True) <= PHONE_WIDTH - 2 * MARGIN
    )
    names = [text for text, _ in cells if text.startswith("WWW")]
    assert len(names) == 4 and all(name.endswith("…") for name in names)
