"""Carcassonne: Star Wars engine figures: ``apply`` median and p99 (place and deploy
actions through :class:`~engine.core.Game`), ``legal_placements`` on a 70-tile map,
random 4-player games per second, AI think time per level (p99), the board picture's
time and size at 70 tiles, and optionally the strength of strategic against greedy.

Durations are CPU time of this process (``time.process_time``), so figures taken on a
machine shared with other work are not inflated by waiting for a core; games per second
are per CPU second too. ``apply`` is timed on states whose map has not been analysed yet
(the choice is made on a copy), so it includes working out the features.

    python bench/carcassonne.py [--games 20] [--think 3] [--strength 0] [--jobs 1]

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
from engine.carcassonne.rules import legal_deployments, legal_placements
from engine.carcassonne.simulate import simulate
from engine.carcassonne.state import GameState
from engine.core import Rng

clock = time.process_time


def fresh(state: GameState) -> GameState:
    """The same state with a map whose features are not worked out yet."""
    return dataclasses.replace(state, board=Board(state.board.tiles))


def random_game(seed: int, applies: list[float] | None = None) -> Table:
    table = Table.new(seats=4, seed=seed)
    rng = Rng(seed, 1)
    while not table.is_over:
        placements = legal_placements(fresh(table.state))
        start = clock()
        table.place(table.active, placements[rng.below(len(placements))])
        if applies is not None:
            applies.append(clock() - start)
        deployments = legal_deployments(fresh(table.state))
        start = clock()
        table.deploy(table.active, deployments[rng.below(len(deployments))])
        if applies is not None:
            applies.append(clock() - start)
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
    parser.add_argument("--think", type=int, default=3, help="2-player games timed per level")
    parser.add_argument("--strength", type=int, default=0, help="strategic v greedy games")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    out: dict[str, object] = {}

    applies: list[float] = []
    for index in range(args.games):
        random_game(args.seed + index, applies)
    out["apply"] = summary_ms(applies)
    start = clock()
    for index in range(args.games):
        random_game(args.seed + 1000 + index)
    out["random_4p_games_per_cpu_s"] = round(args.games / (clock() - start), 2)

    table = seventy_tiles(args.seed)
    state = table.state
    if state.phase.value != "place":
        table.deploy(table.active)
        state = table.state
    timings = []
    for _ in range(200):
        probe = fresh(state)
        begin = clock()
        found = legal_placements(probe)
        timings.append(clock() - begin)
    out["legal_placements_70_tiles"] = {**summary_ms(timings), "placements": len(found)}

    renders = []
    png = b""
    for _ in range(10):
        begin = clock()
        png = board_png(table.view())
        renders.append(clock() - begin)
    out["board_png_70_tiles"] = {**summary_ms(renders), "bytes": len(png)}

    think: dict[str, object] = {}
    for level in LEVELS:
        policy = policy_for(level)
        durations: dict[str, list[float]] = {"place": [], "deploy": []}
        for game in range(args.think):
            play = Table.new(seats=2, seed=args.seed + 50 + game)
            step = 0
            while not play.is_over:
                step += 1
                view = play.view(play.active)
                begin = clock()
                action = next_action(policy, view, Rng(game, step))
                durations[action.kind].append(clock() - begin)
                play.act(action)
        think[level] = {phase: summary_ms(times) for phase, times in durations.items()}
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
