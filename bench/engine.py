"""Charioteer engine speed: full 6-seat races per second with random legal moves, and the
median / p99 time to resolve one turn and to enumerate ``legal_moves`` for one seat.

    python bench/engine.py [--races 30] [--seed 1]

Prints JSON. A measurement, never a test.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.charioteer import Race, legal_moves
from engine.core import Rng


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--races", type=int, default=30)
    parser.add_argument("--seats", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    resolve_times: list[float] = []
    enumerate_times: list[float] = []
    move_counts: list[int] = []
    turns = 0
    started = time.perf_counter()
    enumerating = 0.0
    for index in range(args.races):
        seed = args.seed + index
        rng = Rng(seed, 1)
        race = Race.new(seats=args.seats, seed=seed)
        while not race.is_over:
            for seat in race.waiting_for:
                begin = time.perf_counter()
                moves = legal_moves(race.state, seat)
                took = time.perf_counter() - begin
                enumerating += took
                enumerate_times.append(took)
                move_counts.append(len(moves))
                move = moves[rng.below(len(moves))]
                last = len(race.waiting_for) == 1
                begin = time.perf_counter()
                race.commit(seat, move)
                if last:
                    resolve_times.append(time.perf_counter() - begin)
            turns += 1
    elapsed = time.perf_counter() - started
    print(
        json.dumps(
            {
                "races": args.races,
                "seats": args.seats,
                "turns": turns,
                "races_per_second_including_enumeration": round(args.races / elapsed, 2),
                "races_per_second_excluding_enumeration": round(
                    args.races / (elapsed - enumerating), 2
                ),
                "resolve_turn_ms": {
                    "median": round(statistics.median(resolve_times) * 1000, 3),
                    "p99": round(percentile(resolve_times, 0.99) * 1000, 3),
                },
                "legal_moves_ms": {
                    "median": round(statistics.median(enumerate_times) * 1000, 3),
                    "p99": round(percentile(enumerate_times, 0.99) * 1000, 3),
                    "max": round(max(enumerate_times) * 1000, 3),
                },
                "legal_moves_count": {
                    "median": statistics.median(move_counts),
                    "max": max(move_counts),
                },
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
