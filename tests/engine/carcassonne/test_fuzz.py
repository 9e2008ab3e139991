"""Random play: round-trips, replays, refusals, hidden stacks and the conservation laws.

At the start and after every action (each placement and each deploy, so also the deploy
phase of a placement that joined two players' features, before its battle): the position
round-trips through JSON text, replaying the recorded action on the replayed state gives
the live state, tiles and meeples are conserved, no score goes down, and no seat's view
(nor the public one) depends on the order of the stack. Before every action, random
illegal ones (another seat acting, the other phase's action, a placement or deployment
the rules do not list) are refused and change nothing. The whole record replays at the
end. ``CIRCUS_LONG=1`` plays 200 games instead of 6.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from engine.carcassonne import (
    RULESET,
    Deployment,
    FeatureRef,
    GameState,
    Placement,
    Size,
    Table,
    catalogue,
    read_position,
    view,
    write_position,
)
from engine.carcassonne.components import tile_type
from engine.core import Chance, GameRecord, IllegalAction, MalformedPosition, Rng, replay

GAMES = 200 if os.environ.get("CIRCUS_LONG") else 6


def _all_tiles() -> Counter[str]:
    return Counter(catalogue().stack()) + Counter([catalogue().start.id])


def _assert_round_trips(state: GameState) -> None:
    assert read_position(json.loads(json.dumps(write_position(state)))) == state


def _assert_views_hide_the_stack(state: GameState) -> None:
    """What is left in the stack is public; its order never is."""
    shuffled = dataclasses.replace(state, stack=tuple(reversed(state.stack)))
    for seat in (None, *state.seats):
        assert view(shuffled, seat) == view(state, seat)
        assert "stack" not in view(state, seat).to_json()


def _assert_refused(table: Table, act: Callable[[], object]) -> None:
    state, actions = table.state, len(table.record.actions)
    with pytest.raises(IllegalAction):
        act()
    assert table.state == state and len(table.record.actions) == actions


def _fits(state: GameState, placement: Placement) -> bool:
    """Whether the rules take ``placement`` (the legal list names only one of the turns
    of a symmetric tile that look the same)."""
    square = (placement.x, placement.y)
    assert state.current is not None
    tile = tile_type(state.current)
    return square in state.board.frontier and state.board.fits(tile, *square, placement.rotation)


def _try_illegal_placements(table: Table, rng: Rng) -> None:
    legal = table.legal_placements()
    other = next(seat for seat in table.state.seats if seat != table.active)
    _assert_refused(table, lambda: table.place(other, legal[0]))
    _assert_refused(table, lambda: table.deploy(table.active, None))
    xs = [p.x for p in table.state.board.tiles] or [0]
    ys = [p.y for p in table.state.board.tiles] or [0]
    for _ in range(3):
        tried = Placement(
            min(xs) - 2 + rng.below(max(xs) - min(xs) + 5),
            min(ys) - 2 + rng.below(max(ys) - min(ys) + 5),
            rng.below(4),
        )
        if not _fits(table.state, tried):
            _assert_refused(table, lambda tried=tried: table.place(table.active, tried))


def _try_illegal_deployments(table: Table, rng: Rng) -> None:
    legal = table.legal_deployments()
    other = next(seat for seat in table.state.seats if seat != table.active)
    _assert_refused(table, lambda: table.deploy(other, None))
    placed = table.state.placed
    assert placed is not None
    beside = Placement(placed[0] + 1, placed[1], 0)
    _assert_refused(table, lambda: table.place(table.active, beside))
    for _ in range(3):
        feature = rng.below(8)
        at = FeatureRef(placed[0] + rng.below(3) - 1, placed[1] + rng.below(3) - 1, feature)
        tried = Deployment(at, Size.LARGE if rng.below(2) else Size.SMALL)
        if tried not in legal:
            _assert_refused(table, lambda tried=tried: table.deploy(table.active, tried))


def _assert_features_known(state: GameState) -> None:
    """``Board.has`` (read from the tiles alone) names exactly the features and planets
    the map's regions hold."""
    board = state.board
    for placed in board.tiles[-3:]:
        for x, y in ((placed.x, placed.y), (placed.x + 1, placed.y)):
            for feature in (None, -1, *range(10)):
                ref = FeatureRef(x, y, feature)
                try:
                    board.region(ref)
                    in_a_region = True
                except MalformedPosition:
                    in_a_region = False
                assert board.has(ref) is in_a_region, ref


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
    _assert_views_hide_the_stack(state)
    _assert_features_known(state)
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
        _try_illegal_placements(table, rng)
        before = table.state
        table.place(table.active, placements[rng.below(len(placements))])
        replayed = _check_step(table, before, replayed)
        deployments = table.legal_deployments()
        _try_illegal_deployments(table, rng)
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
