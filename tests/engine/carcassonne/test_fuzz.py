"""Random play: round-trips, replays, and the conservation laws (issue: tests).

At the start and after every action (each placement and each deploy, so also the deploy
phase of a placement that joined two players' features, before its battle): the position
round-trips through JSON text, replaying the recorded action on the replayed state gives
the live state, tiles and meeples are conserved and no score goes down. The whole record
replays at the end. ``CIRCUS_LONG=1`` plays 200 games instead of 6.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from typing import Any

import pytest

from engine.carcassonne import (
    RULESET,
    GameState,
    Size,
    Table,
    catalogue,
    read_position,
    write_position,
)
from engine.core import Chance, GameRecord, Rng, replay

GAMES = 200 if os.environ.get("CIRCUS_LONG") else 6


def _all_tiles() -> Counter[str]:
    return Counter(catalogue().stack()) + Counter([catalogue().start.id])


def _assert_round_trips(state: GameState) -> None:
    assert read_position(json.loads(json.dumps(write_position(state)))) == state


def _check_step(table: Table, before: GameState, replayed: GameState) -> GameState:
    """The laws after one action; returns the replayed state moved on by that action."""
    state = table.state
    assert all(now >= then for now, then in zip(state.scores, before.scores, strict=True))
    for seat in state.seats:
        mine = [m for m in state.meeples if m.seat == seat]
        assert sum(m.size is Size.SMALL for m in mine) <= 4
        assert sum(m.size is Size.LARGE for m in mine) <= 1
    held = Counter(p.tile for p in state.board.tiles) + Counter(state.stack)
    held += Counter(state.removed) + Counter([state.current] if state.current else [])
    assert held == _all_tiles()
    _assert_round_trips(state)
    recorded = table.record.actions[-1]
    chance = Chance.scripted(recorded.chance, RULESET.chance_index(replayed))
    replayed = RULESET.apply(replayed, recorded, chance).state
    chance.finish()
    assert replayed == state
    return replayed


@pytest.mark.parametrize("seed", range(GAMES))
def test_random_games_keep_every_law(seed: int) -> None:
    seats = 2 + seed % 4
    unplaceable = "return" if seed % 3 == 0 else "remove"
    team = seats == 4 and seed % 8 == 2
    table = Table.new(seats=seats, seed=seed, team=team, unplaceable=unplaceable)
    rng = Rng(seed, 1)
    replayed = replay(table.record)
    _assert_round_trips(table.state)
    while not table.is_over:
        placements = table.legal_placements()
        assert placements, "a drawn tile always fits somewhere"
        before = table.state
        table.place(table.active, placements[rng.below(len(placements))])
        replayed = _check_step(table, before, replayed)
        deployments = table.legal_deployments()
        before = table.state
        table.deploy(table.active, deployments[rng.below(len(deployments))])
        replayed = _check_step(table, before, replayed)
    record = GameRecord.from_json(table.record.to_json())
    assert replay(record) == table.state
    assert table.result is not None
    assert len(table.state.board) + len(table.state.removed) == 76


def _one_roll_battles(record: dict[str, Any]) -> list[int]:
    """The actions whose only chance outcomes are two different dice: a one-die-each
    battle decided at the first roll."""
    found = []
    for index, action in enumerate(record["actions"]):
        chance = action.get("chance", [])
        dice = [c["roll"] for c in chance if c["what"] == "battle die"]
        if len(chance) == len(dice) == 2 and dice[0] != dice[1]:
            found.append(index)
    return found


def test_a_replay_uses_the_recorded_dice_never_new_ones() -> None:
    """Swap the two dice of a one-roll battle in the record: the replay (up to that
    action; later ones were played on the true outcome) follows the record and the other
    side wins."""
    battles: list[int] = []
    for seed in range(60):
        table = Table.new(seats=2, seed=seed)
        rng = Rng(seed, 2)
        while not table.is_over:
            placements = table.legal_placements()
            table.place(table.active, placements[rng.below(len(placements))])
            deployments = table.legal_deployments()
            attacks = [d for d in deployments if d is not None and d.at.is_planet]
            choice = attacks[0] if attacks else deployments[rng.below(len(deployments))]
            table.deploy(table.active, choice)
        record = table.record.to_json()
        battles = _one_roll_battles(record)
        if battles:
            break
    assert battles, "some game has a one-roll battle"
    assert replay(GameRecord.from_json(record)) == table.state
    upto = battles[0] + 1
    honest = replay(GameRecord.from_json(record), upto=upto)
    first, second = record["actions"][battles[0]]["chance"]
    first["roll"], second["roll"] = second["roll"], first["roll"]
    tampered = replay(GameRecord.from_json(record), upto=upto)
    assert (tampered.scores, tampered.meeples) != (honest.scores, honest.meeples)
