"""AI seats: every level chooses a legal drawing from what its seat may see, the same one
for the same view and rng, and never looks behind the view; greedy and strategic judge
drawings as their docstrings say; the timeout move is legal."""

from __future__ import annotations

import dataclasses
import os
import random
from collections.abc import Iterator

import pytest

from engine.cartographers import Expedition, GameState, MapSheet, Side, Terrain, view
from engine.cartographers.ai import (
    LEVELS,
    TIMEOUT_LEVEL,
    action_for,
    ai_action,
    legal_choices,
    policy_for,
    timeout_action,
)
from engine.cartographers.ai.evaluation import immediate_gain, ruins_to_come
from engine.cartographers.geometry import cell
from engine.cartographers.placement import Drawing
from engine.cartographers.rules import MONSTER, PLACE
from engine.cartographers.scoring import score
from engine.cartographers.simulate import DECISION_STREAMS
from engine.cartographers.state import Phase
from engine.core import GameOver, IllegalAction, MalformedAction, Rng
from tests.engine.cartographers.helpers import options_for, play_randomly, rows, table

LONG = os.environ.get("CIRCUS_LONG") == "1"
SEEDS_PER_TABLE = 6 if LONG else 1
TABLES = [
    (seats, side, ambush)
    for seats in (1, 2, 6, 12)
    for side in ("A", "B")
    for ambush in ("auto", "neighbour")
    if not (seats == 1 and ambush == "neighbour")
]


def level_of(seats: int, index: int, seed: int) -> str:
    """Levels mixed around the table; on big tables most seats are random (speed)."""
    if seats > 2 and index >= 3:
        return "random"
    return LEVELS[(index + seed) % len(LEVELS)]


def states_of_a_game(
    seats: int, side: str, ambush: str, seed: int
) -> Iterator[tuple[GameState, str, Drawing]]:
    """Play a game between AI levels; yield each decision with the state it was made in."""
    expedition = Expedition.new(seats=seats, seed=seed, side=side, ambush=ambush)
    while not expedition.is_over:
        state = expedition.state
        for seat in state.waiting_for:
            index = state.seats.index(seat)
            seat_view = expedition.view(seat)
            rng = Rng(seed, state.turn * DECISION_STREAMS + index)
            drawing = policy_for(level_of(seats, index, seed)).choose(seat_view, rng)
            yield expedition.state, seat, drawing
            action = action_for(seat_view, drawing)
            assert action.kind == (MONSTER if state.phase is Phase.AMBUSH else PLACE)
            expedition.game.act(action)


@pytest.mark.parametrize(("seats", "side", "ambush"), TABLES)
def test_every_chosen_drawing_is_legal(seats: int, side: str, ambush: str) -> None:
    decisions = 0
    monsters = 0
    for seed in range(SEEDS_PER_TABLE):
        for state, seat, drawing in states_of_a_game(seats, side, ambush, seed):
            listed = options_for(state, seat)
            assert (drawing.terrain, drawing.cells, drawing.coin) in {
                (d.terrain, d.cells, d.coin) for d in listed
            }
            decisions += 1
            monsters += state.phase is Phase.AMBUSH
    assert decisions >= 15 * seats * SEEDS_PER_TABLE
    if ambush == "neighbour":
        assert monsters > 0


def test_legal_choices_are_the_engines_legal_placements() -> None:
    expedition = Expedition.new(seats=2, seed=5, ambush="neighbour")
    rng = Rng(5, 1)
    for _ in range(30):
        state = expedition.state
        seat = state.waiting_for[0]
        ours = {(d.terrain, d.cells) for d in legal_choices(expedition.view(seat))}
        assert ours == {(d.terrain, d.cells) for d in options_for(state, seat)}
        choices = options_for(state, seat)
        kind = MONSTER if state.phase is Phase.AMBUSH else PLACE
        expedition.act(kind, seat, choices[rng.below(len(choices))].placement)


# --------------------------------------------------------------------------- determinism


@pytest.mark.parametrize("level", LEVELS)
def test_same_view_and_rng_give_the_same_drawing(level: str) -> None:
    expedition = Expedition.new(seats=3, seed=11, side="B")
    play_some(expedition, 9)
    seat_view = expedition.view("2")
    first = policy_for(level).choose(seat_view, Rng(3, 7))
    for disturbance in range(5):
        random.seed(disturbance)
        random.random()
        assert policy_for(level).choose(seat_view, Rng(3, 7)) == first


def test_a_whole_game_between_levels_replays_the_same() -> None:
    def record(seed: int) -> list[dict[str, object]]:
        return [
            {"seat": seat, "cells": drawing.cells, "terrain": drawing.terrain.value}
            for _, seat, drawing in states_of_a_game(2, "A", "neighbour", seed)
        ]

    first = record(2)
    random.seed(99)
    assert record(2) == first
    assert record(3) != first


def play_some(expedition: Expedition, turns: int) -> None:
    rng = Rng(turns, 0)
    while expedition.state.turn < turns and not expedition.is_over:
        state = expedition.state
        seat = state.waiting_for[0]
        choices = options_for(state, seat)
        kind = MONSTER if state.phase is Phase.AMBUSH else PLACE
        expedition.act(kind, seat, choices[rng.below(len(choices))].placement)


# --------------------------------------------------------------------------- no peeking


@pytest.mark.parametrize("level", LEVELS)
def test_hidden_information_does_not_change_the_choice(level: str) -> None:
    """The deck order, the seed and what another seat has committed (not whether it has)
    are not in the view: tables differing only in them get the same drawing."""
    expedition = Expedition.new(seats=2, seed=8)
    play_some(expedition, 4)
    state = expedition.state
    other = state.waiting_for[-1]
    mine = state.waiting_for[0]
    choices = options_for(state, other)
    committed = dataclasses.replace(state, commits=((other, choices[0]),))
    changed = dataclasses.replace(state, commits=((other, choices[-1]),))
    shuffled = dataclasses.replace(
        committed,
        deck=tuple(reversed(state.deck)),
        ambush_deck=tuple(reversed(state.ambush_deck)),
        seed=state.seed + 1,
    )
    variants = (committed, changed, shuffled)
    assert choices[0] != choices[-1]
    assert len({view(variant, mine) for variant in variants}) == 1
    drawings = {policy_for(level).choose(view(variant, mine), Rng(1, 2)) for variant in variants}
    assert len(drawings) == 1


# --------------------------------------------------------------------------- judgement


def borderlands_table() -> Expedition:
    """Spring (A sentinel_wood + B mages_valley); borderlands is edict D (autumn, winter).
    Row 11 lacks four cells, which Fishing Village's line fills."""
    printed = list(MapSheet.blank(Side.A).rows())
    maps = [[*printed[:10], "....TTTTTTT"]]
    return table(
        edicts=["sentinel_wood", "mages_valley", "greengold_plains", "borderlands"],
        card="fishing_village",
        column=["fishing_village"],
        maps=maps,
    )


def test_greedy_scores_the_seasons_edicts_coins_and_monsters() -> None:
    expedition = borderlands_table()
    seat_view = expedition.view("1")
    sheet = seat_view.player("1").sheet
    drawing = policy_for("greedy").choose(seat_view, Rng(0))
    after = sheet.draw(drawing.cells, drawing.terrain)
    mages = score("mages_valley", after).points - score("mages_valley", sheet).points
    assert mages == 2  # a water cell next to a mountain: no line reaches two
    assert immediate_gain(seat_view, sheet, 0, drawing) == max(
        immediate_gain(seat_view, sheet, 0, other) for other in legal_choices(seat_view)
    )


def test_strategic_looks_at_edicts_of_later_seasons() -> None:
    expedition = borderlands_table()
    seat_view = expedition.view("1")
    row_gap = (cell(10, 0), cell(10, 1), cell(10, 2), cell(10, 3))
    assert policy_for("greedy").choose(seat_view, Rng(0)).cells != row_gap
    assert policy_for("strategic").choose(seat_view, Rng(0)).cells == row_gap


def test_greedy_counts_a_coin_and_a_surrounded_mountain() -> None:
    """The mountain at D3 has three filled sides: closing the fourth earns a coin, and
    the coin shape of Farmland earns another."""
    maps = [rows("", ". . . T", ". . T M T", ". . . . T")]
    expedition = table(
        edicts=["sentinel_wood", "canal_lake", "great_city", "borderlands"],
        card="farmland",
        column=["farmland"],
        maps=maps,
    )
    seat_view = expedition.view("1")
    drawing = policy_for("greedy").choose(seat_view, Rng(0))
    assert cell(3, 3) in drawing.cells and drawing.coin
    assert immediate_gain(seat_view, seat_view.player("1").sheet, 0, drawing) == 2


def test_greedy_draws_a_neighbours_monster_where_it_hurts_most() -> None:
    expedition = Expedition.new(seats=2, seed=0, ambush="neighbour")
    while expedition.state.phase is not Phase.AMBUSH:
        play_some(expedition, expedition.state.turn + 1)
    seat = expedition.waiting_for[0]
    seat_view = expedition.view(seat)
    assert seat_view.target != seat
    target = seat_view.player(seat_view.target or "")
    drawing = policy_for("greedy").choose(seat_view, Rng(0))
    assert drawing.terrain is Terrain.MONSTER
    gains = [
        immediate_gain(seat_view, target.sheet, target.coins, d) for d in legal_choices(seat_view)
    ]
    assert immediate_gain(seat_view, target.sheet, target.coins, drawing) == min(gains)
    assert ai_action("greedy", seat_view, Rng(0)).kind == MONSTER


# --------------------------------------------------------------------------- edges


def test_the_timeout_move_is_a_legal_drawing_of_the_lowest_level() -> None:
    assert LEVELS[0] == TIMEOUT_LEVEL
    expedition = Expedition.new(seats=2, seed=4, side="B")
    for _ in range(20):
        seat = expedition.waiting_for[-1]
        action = timeout_action(expedition.view(seat), Rng(4, expedition.state.turn))
        expedition.game.act(action)
    assert expedition.state.turn > 5


@pytest.mark.parametrize("level", LEVELS)
def test_no_drawing_when_there_is_none_to_make(level: str) -> None:
    policy = policy_for(level)
    over = Expedition.new(seats=1, seed=2)
    play_randomly(over, Rng(2))
    with pytest.raises(GameOver):
        policy.choose(over.view("1"), Rng(0))
    live = Expedition.new(seats=2, seed=2)
    with pytest.raises(IllegalAction):
        policy.choose(live.view(None), Rng(0))
    full = table(seats=2, maps=[["TTTTTTTTTTT"] * 11, rows("")])
    assert full.waiting_for == ("2",)
    with pytest.raises(IllegalAction, match="nowhere"):
        policy.choose(full.view("1"), Rng(0))


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(MalformedAction, match="unknown AI level"):
        policy_for("clairvoyant")


@pytest.mark.parametrize(
    ("season", "column", "expected"),
    [
        ("spring", ["temple_ruins", "outpost_ruins", "hamlet"], True),
        ("winter", ["temple_ruins", "hamlet"], True),
        ("winter", ["temple_ruins", "outpost_ruins", "hamlet"], False),
    ],
)
def test_ruins_cards_still_to_come(season: str, column: list[str], expected: bool) -> None:
    """Ruins return with every reshuffle; only in winter can both have been revealed."""
    expedition = table(season=season, card="hamlet", column=column)
    assert ruins_to_come(expedition.view("1")) is expected
