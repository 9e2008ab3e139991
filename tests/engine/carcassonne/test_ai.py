"""The AI levels: legal, deterministic, blind to the stack's order, and ordered in
strength (the full 400-game figure is measured by bench/carcassonne.py)."""

from __future__ import annotations

import dataclasses

import pytest

from engine.carcassonne import Table, view
from engine.carcassonne.ai import LEVELS, next_action, policy_for
from engine.carcassonne.simulate import play_game, simulate
from engine.core import IllegalAction, MalformedAction, Rng


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_finishes_a_game_with_legal_actions(level: str) -> None:
    table = Table.new(seats=3, seed=4)
    policy = policy_for(level)
    step = 0
    while not table.is_over:
        step += 1
        table.act(next_action(policy, table.view(table.active), Rng(4, step)))
    assert table.result is not None


@pytest.mark.parametrize("level", LEVELS)
def test_a_level_does_not_see_the_stack_order(level: str) -> None:
    table = Table.new(seats=2, seed=9)
    for _ in range(6):
        table.act(next_action(policy_for("random"), table.view(table.active), Rng(1, _)))
    state = table.state
    reordered = dataclasses.replace(state, stack=tuple(reversed(state.stack)))
    policy = policy_for(level)
    seat = state.active_seat
    assert policy.choose_turn(view(state, seat), Rng(3, 3)) == policy.choose_turn(
        view(reordered, seat), Rng(3, 3)
    )


def test_a_level_refuses_to_play_out_of_turn() -> None:
    table = Table.new(seats=2, seed=1)
    with pytest.raises(IllegalAction):
        policy_for("greedy").choose_turn(table.view("green"), Rng(0))
    with pytest.raises(MalformedAction):
        policy_for("clever")


def test_greedy_beats_random_and_strategic_beats_greedy_on_a_small_sample() -> None:
    policies = [policy_for("greedy"), policy_for("random")]
    greedy_wins = sum(
        0 in play_game(policies, seed, rotation=seed % 2).winners for seed in range(4)
    )
    assert greedy_wins >= 3
    figures = simulate(["strategic", "greedy"], 4, 7)
    entries = figures["entries"]
    assert entries[0]["wins"] >= 3, entries
