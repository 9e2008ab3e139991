"""Every stored game loads again: random games of each game played through the table
service as one process of a cluster with no room for a table in memory, so every action is
applied to the game read back from the position stored after the action before (as after
a restart or a cache eviction). Each game plays to its end, the game stored after every
call equals the replay of the stored record up to there, and the games pass through the
moments a position must carry over (a commit mid-turn, an ambush, a season's end, a deploy
phase, a placement that joined two players' features before its battle).

``CIRCUS_LONG=1`` plays more and longer games."""

from __future__ import annotations

import itertools
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass

import pytest

from bot.clock import FakeClock
from bot.games import host_for
from bot.service import TableService, TableSettings
from bot.shards import Shards, shard_of
from engine import carcassonne, cartographers, charioteer
from engine.carcassonne.battle import units_in
from engine.core import JSON, Rng, replay, replay_steps
from tests.bot.conftest import first_choice

LONG = os.environ.get("CIRCUS_LONG") == "1"
GAMES = 20 if LONG else 1
CLUSTER = Shards(2, (0,))
"""This process holds shard 0 of 2: a cluster's process (the test leaves its cache no
room)."""
GUILD = 1 << 23
"""A server on shard 0 of 2."""
USERS = (11, 22, 33)
MAX_CALLS = 1000


@dataclass(frozen=True)
class Setting:
    game: str
    humans: int
    ai: tuple[str, ...]
    """The AI seats' levels."""
    options: dict[str, JSON]
    seed: int
    """The first table's seed (the next tables take the next ones)."""


MOMENTS = {
    "charioteer": {"a commit mid-turn", "a turn resolved", "the end"},
    "cartographers": {"a commit mid-turn", "an ambush", "a season's end", "the end"},
    "carcassonne": {"a deploy phase", "two sides before their battle", "the end"},
}
"""What the games of each test must pass through (each after some action)."""

SETTINGS = {
    "charioteer": Setting("charioteer", 2, ("greedy",), {"laps": 1}, seed=1),
    "cartographers": Setting("cartographers", 2, ("greedy",), {"ambush": "neighbour"}, seed=1),
    "carcassonne": Setting("carcassonne", 1, ("greedy",), {}, seed=21),
}
"""Short games, whose seeds take them through every moment of :data:`MOMENTS` (seed 21:
a placement joins two players' features)."""
LONG_SETTINGS = {
    "charioteer": Setting("charioteer", 2, ("random", "strategic"), {"laps": 2}, seed=100),
    "cartographers": Setting(
        "cartographers", 1, ("random", "greedy"), {"ambush": "neighbour"}, seed=100
    ),
    "carcassonne": Setting("carcassonne", 2, ("random", "greedy"), {}, seed=100),
}


def moments(before: object, after: object) -> set[str]:
    """The moments of play ``after`` stands at, one action after ``before``."""
    found = set()
    if isinstance(after, charioteer.RaceState):
        assert isinstance(before, charioteer.RaceState)
        found.add("a commit mid-turn" if after.commits else "")
        found.add("a turn resolved" if after.turn != before.turn else "")
        found.add("the end" if after.result is not None else "")
    elif isinstance(after, cartographers.GameState):
        assert isinstance(before, cartographers.GameState)
        found.add("a commit mid-turn" if after.commits else "")
        found.add("an ambush" if after.phase is cartographers.Phase.AMBUSH else "")
        found.add("a season's end" if after.season != before.season or after.is_over else "")
        found.add("the end" if after.is_over else "")
    elif isinstance(after, carcassonne.GameState):
        found.add("a deploy phase" if after.phase is carcassonne.Phase.DEPLOY else "")
        found.add("two sides before their battle" if _shared_feature(after) else "")
        found.add("the end" if after.is_over else "")
    return found - {""}


def _shared_feature(state: carcassonne.GameState) -> bool:
    board = state.board
    for region in board.regions:
        inside = [meeple for meeple in state.meeples if board.region(meeple.at) is region]
        if len(units_in(inside, state.unit_of)) > 1:
            return True
    return False


async def open_table(service: TableService, setting: Setting) -> int:
    """A started table of ``setting``: its humans (USERS, the first hosting) and AI seats."""
    users = USERS[: setting.humans]
    table = await service.open_lobby(
        game=setting.game,
        host_id=users[0],
        host_name="host",
        settings=TableSettings(seats=setting.humans + len(setting.ai), options=setting.options),
        guild_id=GUILD,
        channel_id=2,
    )
    for user in users[1:]:
        await service.join(table.id, user, f"user{user}")
    for level in setting.ai:
        await service.add_ai(table.id, users[0], level)
    await service.start(table.id, users[0])
    return table.id


async def play_reloading(service: TableService, table_id: int, rng: Rng) -> set[str]:
    """Play the table to its end, people's moves at random among the legal ones; after
    every call, check the stored game against the replay of the stored record. Returns
    the moments the game passed through."""
    stored: dict[int, object] = {}
    await service.play_ai_seats(table_id)
    for _ in range(MAX_CALLS):
        game = await service.game(table_id)
        stored[len(game.record.actions)] = game.state
        table = await service.table(table_id)
        if table.status != "running":
            break
        waiting = table.waiting_humans()
        assert waiting, "no one owes a move in a running game"
        user = waiting[rng.below(len(waiting))].user_id
        assert user is not None
        _, seat_view = await service.view_for(table_id, user)
        move = first_choice(table.host, "random", seat_view, rng)
        await service.submit(table_id, user, move, table.row.turn)
        await service.play_ai_seats(table_id)
    else:
        raise AssertionError("the game did not end")
    assert table.status == "finished"
    assert table.host.standing(game.state) is not None
    replayed = {0: replay(game.record, upto=0)}
    passed: set[str] = set()
    for seq, (_, transition) in enumerate(replay_steps(game.record), start=1):
        replayed[seq] = transition.state
        passed |= moments(replayed[seq - 1], transition.state)
    for seq, state in stored.items():
        assert state == replayed[seq], f"the game stored after action {seq} is not its replay"
    return passed


def count_reads(game: str, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A counter (one item) of the positions of ``game`` read back from now on."""
    ruleset = host_for(game).ruleset
    read = ruleset.from_position
    reads = [0]

    def counted(position: Mapping[str, JSON]) -> object:
        reads[0] += 1
        return read(position)

    monkeypatch.setattr(ruleset, "from_position", counted)
    return reads


@pytest.mark.parametrize("game", sorted(SETTINGS))
async def test_every_action_applies_to_the_game_read_back_from_storage(
    game: str,
    database: str,
    clock: FakeClock,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert shard_of(GUILD, CLUSTER.count) in CLUSTER.ids
    monkeypatch.setattr("bot.service.CACHE_SIZE", 0)
    reads = count_reads(game, monkeypatch)
    actions = 0
    settings = [SETTINGS[game]] + [LONG_SETTINGS[game]] * (GAMES - 1)
    seeds = itertools.chain([settings[0].seed], itertools.count(settings[-1].seed))
    service = await TableService.create(
        database, clock=clock, seeds=seeds.__next__, choose_action=first_choice, shards=CLUSTER
    )
    passed: set[str] = set()
    try:
        for number, setting in enumerate(settings):
            table_id = await open_table(service, setting)
            passed |= await play_reloading(service, table_id, Rng(number, 7))
            actions += (await service.table(table_id)).row.seq
    finally:
        await service.close()
    assert reads[0] > actions, "the service kept games in memory instead of reading them back"
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
    assert passed >= MOMENTS[game]
