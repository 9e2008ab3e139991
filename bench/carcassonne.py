"""Carcassonne: Star Wars engine figures: ``apply`` median and p99 (place and deploy
actions through :class:`~engine.core.Game`), ``legal_placements`` on a 70-tile map,
random 4-player games per second, AI think time per level (p99), the board picture's
time and size at 70 tiles, and optionally the strength of strategic against greedy.

    python bench/carcassonne.py [--games 20] [--think 30] [--strength 0] [--jobs 1]

``--strength 400`` adds ``simulate`` over 400 2-player games (minutes). Prints JSON. A
measurement, never a test.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.stats import summary_ms
from engine.carcassonne import Board, Table
from engine.carcassonne.ai import LEVELS, next_action, policy_for
from engine.carcassonne.render import board_png
from engine.carcassonne.rules import legal_placements
from engine.carcassonne.simulate import simulate
from engine.core import Rng


def random_game(seed: int, applies: list[float] | None = None) -> Table:
    table = Table.new(seats=4, seed=seed)
    rng = Rng(seed, 1)
    while not table.is_over:
        placements = table.legal_placements()
        start = time.perf_counter()
        table.place(table.active, placements[rng.below(len(placements))])
        if applies is not None:
            applies.append(time.perf_counter() - start)
        deployments = table.legal_deployments()
        start = time.perf_counter()
        table.deploy(table.active, deployments[rng.below(len(deployments))])
        if applies is not None:
            applies.append(time.perf_counter() - start)
    return table


def seventy_tiles(seed: int) -> Table:
    """A 4-player game played by greedy seats until 70 tiles lie on the map."""
    table = Table.new(seats=4, seed=seed)
    policy = policy_for("greedy")
    step = 0
    while len(table.state.board) < 70:
        step += 1
        table.act(next_action(policy, table.view(table.active), Rng(seed, step)))
        if table.is_over:
            table, step = Table.new(seats=4, seed=seed + 1000 + step), 0
    return table


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--think", type=int, default=30, help="turns timed per AI level")
    parser.add_argument("--strength", type=int, default=0, help="strategic v greedy games")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    out: dict[str, object] = {}

    applies: list[float] = []
    start = time.perf_counter()
    for index in range(args.games):
        random_game(args.seed + index, applies)
    elapsed = time.perf_counter() - start
    out["apply"] = summary_ms(applies)
    out["random_4p_games_per_s"] = round(args.games / elapsed, 2)

    table = seventy_tiles(args.seed)
    state = table.state
    if state.phase.value != "place":
        table.deploy(table.active)
        state = table.state
    timings = []
    for _ in range(200):
        probe = dataclasses.replace(state, board=Board(state.board.tiles))  # nothing cached
        begin = time.perf_counter()
        found = legal_placements(probe)
        timings.append(time.perf_counter() - begin)
    out["legal_placements_70_tiles"] = {**summary_ms(timings), "placements": len(found)}

    renders = []
    png = b""
    for _ in range(10):
        begin = time.perf_counter()
        png = board_png(table.view())
        renders.append(time.perf_counter() - begin)
    out["board_png_70_tiles"] = {**summary_ms(renders), "bytes": len(png)}

    think: dict[str, object] = {}
    for level in LEVELS:
        policy = policy_for(level)
        durations = []
        for game in range(3):
            play = Table.new(seats=2, seed=args.seed + 50 + game)
            step = 0
            while not play.is_over and len(durations) < args.think * (game + 1):
                step += 1
                view = play.view(play.active)
                begin = time.perf_counter()
                action = next_action(policy, view, Rng(game, step))
                durations.append(time.perf_counter() - begin)
                play.act(action)
        think[level] = summary_ms(durations)
    out["ai_think"] = think

    if args.strength:
        begin = time.perf_counter()
        out["strength"] = simulate(
            ["strategic", "greedy"], args.strength, args.seed, jobs=args.jobs
        )
        out["strength_seconds"] = round(time.perf_counter() - begin, 1)
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
