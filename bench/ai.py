"""AI think time: median / p99 / worst time per move of each level, over positions from
real races, on one core. A measurement, never a test.

    python bench/ai.py [--races 6] [--laps 3] [--seed 1]

Positions are every seat's view at every turn of races of ``--laps`` laps between a
strategic seat and greedy seats, with 2 and with 6 seats; each level then chooses a move in
each position.
Prints JSON. (Strength is measured by ``python -m engine.charioteer simulate``.)
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.charioteer.ai import LEVELS, policy_for
from engine.charioteer.race import Race
from engine.charioteer.view import SeatView
from engine.core import Rng
from engine.simulation import game_seed


def positions(seats: int, races: int, seed: int, laps: int = 3) -> list[SeatView]:
    """Every seat's view at every turn of ``races`` races (strategic seat A, greedy rest)."""
    views: list[SeatView] = []
    strategic, greedy = policy_for("strategic"), policy_for("greedy")
    for index in range(races):
        race = Race.new(seats=seats, seed=game_seed(seed, index), laps=laps)
        while not race.is_over:
            for number, seat in enumerate(race.seats):
                view = race.view(seat)
                views.append(view)
                policy = strategic if seat == "A" else greedy
                race.commit(seat, policy.choose(view, Rng(seed, race.turn * 8 + number)))
    return views


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--races", type=int, default=6, help="races per seat count")
    parser.add_argument("--laps", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    report: dict[str, dict[str, object]] = {}
    for seats in (2, 6):
        views = positions(seats, args.races, args.seed, args.laps)
        for level in LEVELS:
            policy = policy_for(level)
            times: list[float] = []
            for number, view in enumerate(views):
                rng = Rng(args.seed, number)
                start = time.perf_counter()
                policy.choose(view, rng)
                times.append((time.perf_counter() - start) * 1000)
            report.setdefault(f"{seats} seats", {})[level] = {
                "moves": len(times),
                "median_ms": round(statistics.median(times), 2),
                "p99_ms": round(percentile(times, 0.99), 2),
                "max_ms": round(max(times), 2),
            }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
