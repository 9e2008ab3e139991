"""The ``simulate`` command: games between AI levels, seeded, summarised per level."""

from __future__ import annotations

import io
import json

import pytest

from engine.cartographers.ai import policy_for
from engine.cartographers.cli import main
from engine.cartographers.simulate import play_game, simulate
from engine.core import EngineError, MalformedAction


def test_a_game_between_levels_is_the_same_every_time() -> None:
    policies = [policy_for("greedy"), policy_for("random")]
    first = play_game(policies, 17, side="B", ambush="neighbour")
    assert play_game(policies, 17, side="B", ambush="neighbour") == first
    assert first.turns > 10 and len(first.stars) == 2
    assert set(first.winners) <= {0, 1} and first.winners
    best = max(first.stars)
    assert all(first.stars[entry] == best for entry in first.winners)


def test_rotation_seats_each_entry_in_turn() -> None:
    policies = [policy_for("greedy"), policy_for("random")]
    straight = play_game(policies, 5)
    turned = play_game(policies, 5, rotation=1)
    swapped = play_game(policies[::-1], 5)
    assert turned.stars == swapped.stars[::-1]
    assert straight.seed == turned.seed


def test_the_summary_adds_up() -> None:
    summary = simulate(["greedy", "random", "random"], 3, seed=4, ambush="neighbour")
    assert summary["games"] == 3
    levels = summary["by_level"]
    assert levels["random"]["seats"] == 2 and levels["greedy"]["seats"] == 1
    assert levels["random"]["wins"] + levels["greedy"]["wins"] == pytest.approx(3)
    entries = summary["entries"]
    assert sum(entry["wins"] for entry in entries) == pytest.approx(3)
    assert simulate(["greedy", "random", "random"], 3, seed=4, ambush="neighbour") == summary


@pytest.mark.parametrize(
    ("levels", "games", "options", "error"),
    [
        (["greedy", "sage"], 2, {}, MalformedAction),
        (["greedy"], 0, {}, MalformedAction),
        ([], 2, {}, MalformedAction),
        (["greedy"], 2, {"ambush": "neighbour"}, EngineError),
        (["greedy", "random"], 2, {"side": "C"}, EngineError),
    ],
)
def test_bad_runs_are_refused(
    levels: list[str], games: int, options: dict[str, str], error: type[Exception]
) -> None:
    with pytest.raises(error):
        simulate(levels, games, seed=0, **options)


def test_the_command_prints_the_summary_or_an_error() -> None:
    out = io.StringIO()
    assert main(["simulate", "greedy", "random", "--games", "2", "--compact"], out) == 0
    summary = json.loads(out.getvalue())
    assert summary["levels"] == ["greedy", "random"] and summary["games"] == 2
    out = io.StringIO()
    assert main(["simulate", "greedy", "oracle"], out) == 2
    assert "unknown AI level" in json.loads(out.getvalue())["error"]
