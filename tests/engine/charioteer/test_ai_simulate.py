"""The ``simulate`` command: seeded races between AI levels, summarised as JSON."""

from __future__ import annotations

import io
import json

import pytest

from engine.charioteer.ai import policy_for
from engine.charioteer.cli import main
from engine.charioteer.simulate import play_race, simulate
from engine.core import MalformedAction
from engine.simulation import wilson_interval


def test_simulate_summarises_every_race() -> None:
    result = simulate(["greedy", "random", "random"], races=3, seed=5)
    assert json.loads(json.dumps(result)) == result
    assert result["races"] == 3 and result["unfinished"] == 0
    levels = result["levels"]
    assert set(levels) == {"greedy", "random"}
    assert levels["greedy"]["seats"] == 1 and levels["random"]["seats"] == 2
    assert levels["greedy"]["wins"] + levels["random"]["wins"] == 3
    assert [entry["level"] for entry in result["entries"]] == ["greedy", "random", "random"]
    assert sum(entry["wins"] for entry in result["entries"]) == 3
    low, high = levels["greedy"]["win_rate_ci95"]
    assert 0 <= low <= levels["greedy"]["win_rate"] <= high <= 1
    assert result["turns_range"][0] <= result["mean_turns"] <= result["turns_range"][1]
    assert levels["greedy"]["mean_moves"] + levels["greedy"]["mean_resets"] == pytest.approx(
        result["mean_turns"], abs=1e-3
    )


def test_simulate_is_deterministic_and_rotates_seats() -> None:
    first = simulate(["greedy", "random"], races=2, seed=8, laps=1)
    assert simulate(["greedy", "random"], races=2, seed=8, laps=1) == first
    assert simulate(["greedy", "random"], races=2, seed=9, laps=1) != first
    players = [policy_for("greedy"), policy_for("random")]
    seated = play_race(players, seed=4, laps=1, rotation=0)
    swapped = play_race(players, seed=4, laps=1, rotation=1)
    assert seated.winner == swapped.winner == 0
    assert seated.stats != swapped.stats


def test_parallel_runs_give_the_same_figures() -> None:
    serial = simulate(["greedy", "random"], races=4, seed=3, laps=1)
    assert simulate(["greedy", "random"], races=4, seed=3, laps=1, jobs=2) == serial


def test_simulate_refuses_what_cannot_be_raced() -> None:
    with pytest.raises(MalformedAction):
        simulate(["greedy"], races=1, seed=0)
    with pytest.raises(MalformedAction):
        simulate(["greedy", "random"], races=0, seed=0)
    with pytest.raises(MalformedAction):
        simulate(["greedy", "clever"], races=1, seed=0)


def test_the_command_prints_json() -> None:
    out = io.StringIO()
    argv = ["simulate", "--seats", "greedy,random", "--races", "2", "--laps", "1", "--compact"]
    assert main(argv, out) == 0
    printed = json.loads(out.getvalue())
    assert printed["seats"] == ["greedy", "random"]
    assert printed["levels"]["greedy"]["wins"] + printed["levels"]["random"]["wins"] == 2


def test_the_command_reports_a_bad_level() -> None:
    out = io.StringIO()
    assert main(["simulate", "--seats", "greedy,genius", "--races", "1"], out) == 2
    assert "genius" in json.loads(out.getvalue())["error"]


def test_wilson_interval() -> None:
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    assert wilson_interval(0, 0) == (0.0, 1.0)
