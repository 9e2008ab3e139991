"""Every bench in ``bench/`` still runs: each script at a tiny size, as a subprocess, exits 0
and prints the figures its docstring names. Only that: the figures themselves are
measurements, never tested."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.databases import postgres_required, server_url

REPO_ROOT = Path(__file__).resolve().parents[2]
BENCH = REPO_ROOT / "bench"

TIMINGS = {"median_ms": None, "p99_ms": None}
"""A summary of timings as ``bench/stats.py`` gives it (count and max_ms besides)."""

HELPERS = {
    "counted_bot": "the product bot as load.py runs it (smoke-tested through load.py)",
    "floor_bot": "the load bench's floor (load.py; tests/fakediscord/test_floor_bot.py)",
    "postgres": "PostgreSQL helpers of the benches",
    "stats": "summaries shared by the benches",
}
"""Files of ``bench/`` that are not benches of their own."""

Shape = dict[str, Any]
"""The keys a report must have: each maps to the shape of its value, or None."""

JSON_BENCHES: dict[str, tuple[list[str], Shape]] = {
    "animation": (
        ["--games", "cartographers", "--seats", "2"],
        {"cartographers": {"bytes": None, "draw_seconds": None, "under_discord_limit": None}},
    ),
    "ai": (
        ["--races", "1", "--laps", "1"],
        {
            f"{seats} seats": {
                level: {"moves": None, "median_ms": None, "p99_ms": None, "max_ms": None}
                for level in ("random", "greedy", "strategic")
            }
            for seats in (2, 6)
        },
    ),
    "carcassonne": (
        ["--games", "1", "--think", "1"],
        {
            "apply": TIMINGS,
            "legal_placements_70_tiles": TIMINGS,
            "random_4p_games_per_cpu_s": None,
            "ai_think": {"random": None, "greedy": None, "strategic": None},
            "board_png_70_tiles": TIMINGS | {"bytes": None},
        },
    ),
    "carcassonne_panel": (
        ["--games", "1"],
        {
            f"{tiles}_tiles": {
                "spots": TIMINGS,
                "place_picture": TIMINGS,
                "deploy_choices": TIMINGS,
                "deploy_picture": TIMINGS,
            }
            for tiles in (10, 40, 70)
        },
    ),
    "cartographers": (
        ["--games", "1", "--repeat", "2"],
        {
            "legal_placements_largest_shapes": {"empty": None, "half_full": None},
            "random_games": {"games_per_second": None},
            "png_render": {"median_ms": None, "p99_ms": None},
        },
    ),
    "cartographers_ai": (
        ["--games", "1", "--positions-games", "1", "--turns", "2"],
        {
            **{
                f"think_{table}": {
                    level: {"p50_ms": None, "p99_ms": None, "max_ms": None}
                    for level in ("random", "greedy", "strategic")
                }
                for table in ("2_seats_auto", "6_seats_auto", "4_seats_neighbour")
            },
            "greedy vs random": {"greedy": {"win_rate": None}, "random": {"win_rate": None}},
            "strategic vs greedy": {"strategic": {"win_rate": None}},
        },
    ),
    "cartographers_panel": (
        ["--games", "1", "--players", "2", "--turns", "1"],
        {
            "interactions": {
                kind: {"ack": TIMINGS, "done": TIMINGS} for kind in ("draw", "row", "confirm")
            },
            "bot_and_worker_cpu_seconds": None,
        },
    ),
    "community": (
        ["--players", "8", "--rounds", "1", "--games", "1"],
        {
            "pairing": {"per_round": TIMINGS, "repeats_per_round": None, "byes_per_round": None},
            "rating": {"openskill_alone": TIMINGS, "final_action_with_rating": TIMINGS},
            "standings_picture": {"time": TIMINGS, "png_bytes": None},
        },
    ),
    "engine": (
        ["--races", "1"],
        {
            "races_per_second_including_enumeration": None,
            "resolve_turn_ms": {"median": None, "p99": None},
            "legal_moves_ms": {"median": None, "p99": None},
        },
    ),
    "load": (
        ["--races", "1", "--seats", "2", "--turns", "1", "--channels", "1"],
        {
            **{
                run: {
                    "interactions_per_second": None,
                    "failed_no_answer_in_3s": None,
                    "interaction_to_response": TIMINGS,
                    "bot_cpu_seconds": None,
                }
                for run in ("product", "floor")
            },
            "ratio_product_to_floor": {"p99_latency": None, "bot_cpu_ms_per_interaction": None},
        },
    ),
    "service": (
        [
            *("--races", "4", "--turns", "1", "--render-sample", "2"),
            *("--resume-races", "40", "--resume-templates", "20", "--cold-views", "2"),
        ],
        {
            "play": {"confirm_to_accepted": TIMINGS, "render": None},
            "resume": {"stored": None, "startup": None, "view_for_cold": None},
        },
    ),
    "soak": (
        [
            *("--races", "1", "--parallel", "1", "--channels", "1"),
            *("--kill-every", "2", "--time-limit", "4"),
        ],
        {
            "reached_podium": None,
            "accepted_moves_lost": None,
            "messages": {"posted_twice": None},
            "faults_served": None,
            "kills": None,
            "recovery": {"failed_post_to_next_post": None, "kill_to_first_post": None},
        },
    ),
    "startup": (
        ["--races", "20", "--templates", "10", "--channels", "1"],
        {
            "connected_s": None,
            "first_answer_s": None,
            "caught_up_s": None,
            "live_answers": TIMINGS,
            "posted": None,
        },
    ),
    "web": (
        ["--games", "20", "--players", "10", "--requests", "40", "--concurrency", "4"],
        {
            "results": {
                name: {"requests_per_second": None, "p99_ms": None}
                for name in ("static file", "game page", "leaderboard")
            }
        },
    ),
    "storage": (
        ["--actions", "20", "--races", "2", "--database-url", server_url()],
        {
            "sqlite": {"sequential": TIMINGS, "concurrent": TIMINGS},
            "postgres": {"sequential": TIMINGS} if postgres_required() else None,
        },
    ),
}


def run(bench: str, *args: str) -> str:
    """What ``python bench/<bench>.py args`` prints, once it has exited 0."""
    done = subprocess.run(
        [sys.executable, str(BENCH / f"{bench}.py"), *args],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, f"{bench} exited {done.returncode}:\n{done.stderr[-3000:]}"
    return done.stdout


def printed_json(output: str) -> dict[str, Any]:
    """The JSON object a bench prints last (a bench that runs the bot prints its log first)."""
    lines = output.splitlines()
    start = max(number for number, line in enumerate(lines) if line == "{")
    report: dict[str, Any] = json.loads("\n".join(lines[start:]))
    return report


def missing(report: Any, shape: Shape, where: str = "") -> list[str]:
    """The keys of ``shape`` that ``report`` lacks, as paths."""
    if not isinstance(report, dict):
        return [f"{where or '(report)'} is not an object"]
    gaps = []
    for key, inner in shape.items():
        if key not in report:
            gaps.append(f"{where}{key}")
        elif inner is not None:
            gaps += missing(report[key], inner, f"{where}{key}/")
    return gaps


@pytest.mark.parametrize("bench", sorted(JSON_BENCHES))
def test_the_bench_runs_and_prints_its_figures(bench: str) -> None:
    args, shape = JSON_BENCHES[bench]
    assert missing(printed_json(run(bench, *args)), shape) == []


@pytest.mark.parametrize("game", ["cartographers", "carcassonne"])
def test_the_load_bench_plays_every_game(game: str) -> None:
    """Its players also get through each game's panel: the table plays to its last turn."""
    args, shape = JSON_BENCHES["load"]
    drawn_panel = {"interaction_to_panel": TIMINGS, "panel_by_kind": None}
    shape = shape | {"product": shape["product"] | drawn_panel}
    report = printed_json(run("load", "--game", game, *args))
    assert missing(report, shape) == []
    assert report["product"]["outcome"] == "done"


def test_the_locales_bench_prints_each_languages_count_and_longest_texts() -> None:
    lines = run("locales").splitlines()
    for language in ("en", "es", "it"):
        assert any(re.fullmatch(rf"{language}: \d+ message ids", line) for line in lines)
    assert any(re.match(r"kind\s+limit\s+en\s+es\s+it", line) for line in lines)
    assert any(re.match(r"message\s+2000\s+\d+ ", line) for line in lines)


def test_the_render_bench_prints_time_and_size_of_every_picture() -> None:
    output = run("render", "--races", "1", "--repeat", "1", "--games", "1", "--turns", "1")
    for name in ("board_png", "board_text", "map+candidate", "explore card", "season (12)"):
        figures = rf"^{re.escape(name)} +median +[\d.]+ ms +p99 .* size median"
        assert re.search(figures, output, re.MULTILINE), name


def test_the_service_bench_resumes_from_fewer_templates_than_kinds_of_tables() -> None:
    """Each kind of stored table gets a template even when fewer are asked for than there
    are kinds (the copies of a kind with no template divided by zero)."""
    args = ("--races", "0", "--resume-races", "10", "--resume-templates", "2", "--cold-views", "1")
    resumed = printed_json(run("service", *args))["resume"]
    assert missing(resumed, {"stored": None, "startup": None, "view_for_cold": None}) == []


def test_every_bench_has_its_smoke_test() -> None:
    smoke_tested = {*JSON_BENCHES, "locales", "render"}
    scripts = {path.stem for path in BENCH.glob("*.py")}
    assert scripts - smoke_tested - set(HELPERS) == set()
    assert smoke_tested | set(HELPERS) <= scripts
