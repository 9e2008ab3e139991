"""Think time of the AI levels, per move, over positions from real races (not a test).

Run: ``python -m bench.ai [--races 6] [--seed 1]``. Positions come from races between a
strategic seat and greedy seats (2 and 6 seats); every level then chooses a move in each
position from that seat's view, one core, timed with ``time.perf_counter``. Prints the
median, p99 and worst time per level and seat count.
"""

from __future__ import annotations

import argparse
import statistics
import time

from engine.charioteer.ai import LEVELS, policy_for
from engine.charioteer.race import Race
from engine.charioteer.simulate import race_seed
from engine.charioteer.view import SeatView
from engine.core import Rng


def positions(seats: int, races: int, seed: int) -> list[SeatView]:
    """Every seat's view at every turn of ``races`` races (strategic seat A, greedy rest)."""
    views: list[SeatView] = []
    strategic, greedy = policy_for("strategic"), policy_for("greedy")
    for index in range(races):
        race = Race.new(seats=seats, seed=race_seed(seed, index))
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
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'level':<10} {'seats':>5} {'moves':>6} {'median ms':>10} {'p99 ms':>8} {'max ms':>8}")
    for seats in (2, 6):
        views = positions(seats, args.races, args.seed)
        for level in LEVELS:
            policy = policy_for(level)
            times: list[float] = []
            for number, view in enumerate(views):
                rng = Rng(args.seed, number)
                start = time.perf_counter()
                policy.choose(view, rng)
                times.append((time.perf_counter() - start) * 1000)
            print(
                f"{level:<10} {seats:>5} {len(times):>6} {statistics.median(times):>10.2f} "
                f"{percentile(times, 0.99):>8.2f} {max(times):>8.2f}"
            )


if __name__ == "__main__":
    main()
