"""Cartographers AI seats: think time per level (median / p99 / worst per drawing, one
core) and strength (greedy against random, strategic against greedy). A measurement,
never a test.

    python bench/cartographers_ai.py [--games 200] [--positions-games 4] [--turns 0]
                                     [--jobs 2] [--seed 1]

Think time is taken over every seat's view at every turn (the first ``--turns`` only, if
not 0) of games between mixed levels (2 and 6 seats, auto ambushes, and 4 seats with
neighbour ambushes); each level then chooses in each position. Strength is
``python -m engine.cartographers simulate`` for each pairing (``--games 0`` skips it).
Prints JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.cartographers.ai import LEVELS, action_for, policy_for
from engine.cartographers.simulate import DECISION_STREAMS, simulate
from engine.cartographers.table import Expedition
from engine.cartographers.view import SeatView
from engine.core import Rng
from engine.simulation import game_seed

TABLES = ((2, "auto"), (6, "auto"), (4, "neighbour"))
PAIRINGS = (("greedy", "random"), ("strategic", "greedy"))


def positions(seats: int, ambush: str, games: int, seed: int, turns: int = 0) -> list[SeatView]:
    """Every seat's view at every turn (the first ``turns``, if not 0) of ``games`` games
    (seat levels in turn)."""
    views: list[SeatView] = []
    for index in range(games):
        game = game_seed(seed, index)
        expedition = Expedition.new(seats=seats, seed=game, side="AB"[index % 2], ambush=ambush)
        while not expedition.is_over:
            turn = expedition.state.turn
            if turns and turn > turns:
                break
            for seat in expedition.waiting_for:
                view = expedition.view(seat)
                views.append(view)
                number = expedition.seats.index(seat)
                policy = policy_for(LEVELS[(number + index) % len(LEVELS)])
                rng = Rng(game, turn * DECISION_STREAMS + number)
                expedition.game.act(action_for(view, policy.choose(view, rng)))
    return views


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def think_times(views: list[SeatView]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for level in LEVELS:
        policy = policy_for(level)
        times: list[float] = []
        for number, view in enumerate(views):
            rng = Rng(number, 1)
            start = time.perf_counter()
            policy.choose(view, rng)
            times.append(time.perf_counter() - start)
        out[level] = {
            "p50_ms": round(statistics.median(times) * 1e3, 2),
            "p99_ms": round(percentile(times, 0.99) * 1e3, 2),
            "max_ms": round(max(times) * 1e3, 2),
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="games per pairing (0: none)")
    parser.add_argument("--positions-games", type=int, default=4, help="games per table")
    parser.add_argument("--turns", type=int, default=0, help="turns per game (0: all)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    report: dict[str, object] = {}
    for seats, ambush in TABLES:
        views = positions(seats, ambush, args.positions_games, args.seed, args.turns)
        report[f"think_{seats}_seats_{ambush}"] = {
            "positions": len(views),
            **think_times(views),
        }
    if args.games > 0:
        for pairing in PAIRINGS:
            start = time.perf_counter()
            summary = simulate(pairing, args.games, args.seed, jobs=args.jobs)
            by_level = summary["by_level"]
            assert isinstance(by_level, dict)
            report[" vs ".join(pairing)] = {
                "games": args.games,
                "seconds": round(time.perf_counter() - start, 1),
                **{
                    level: {
                        key: by_level[level][key]
                        for key in ("win_rate", "win_rate_ci95", "mean_stars")
                    }
                    for level in pairing
                },
            }
    json.dump(report, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
