"""The Carcassonne panel's own work per click, without Discord: listing the spots where the
tile fits, the placement picture (the tile drawn where it would go, every spot numbered),
the deployment choices and their picture, on maps of about 10, 40 and 70 tiles.

    python bench/carcassonne_panel.py [--games 5] [--seed 1]

Prints JSON (milliseconds: median and p99 over every turn of ``--games`` random games at
each size, of wall-clock time and, under ``cpu``, of this process's CPU time, the steadier
figure on a shared machine; picture sizes in bytes). A measurement, never a test.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.stats import summary_ms
from bot.games.carcassonne.panel import (
    TurnDraft,
    deploy_panel,
    deploy_png,
    place_panel,
    place_png,
)
from engine.carcassonne import Table
from engine.carcassonne.ai import next_action, policy_for
from engine.core import Rng

SIZES = (10, 40, 70)
KINDS = ("spots", "place_picture", "deploy_choices", "deploy_picture")
T = TypeVar("T")


class Timings:
    """Wall-clock and CPU seconds of each kind of work, by map size."""

    def __init__(self) -> None:
        self.wall = {size: {kind: list[float]() for kind in KINDS} for size in SIZES}
        self.cpu = {size: {kind: list[float]() for kind in KINDS} for size in SIZES}

    def timed(self, size: int, kind: str, work: Callable[[], T]) -> T:
        started, started_cpu = time.perf_counter(), time.process_time()
        result = work()
        self.wall[size][kind].append(time.perf_counter() - started)
        self.cpu[size][kind].append(time.process_time() - started_cpu)
        return result


def measure(games: int, seed: int) -> dict[str, object]:
    timings = Timings()
    png_bytes: dict[int, list[int]] = {size: [] for size in SIZES}
    policy = policy_for("random")
    for game in range(games):
        table = Table.new(seats=4, seed=seed + game)
        rng = Rng(seed + game, 1)
        while not table.is_over:
            size = len(table.state.board.tiles)
            bucket = next((s for s in SIZES if abs(size - s) <= 2), None)
            seat = table.active
            seat_view = table.view(seat)
            if bucket is not None:
                shown = timings.timed(bucket, "spots", partial(place_panel, seat_view, TurnDraft()))
                if shown is not None:
                    picture = partial(place_png, seat_view, shown.placement, shown.squares)
                    png = timings.timed(bucket, "place_picture", picture)
                    png_bytes[bucket].append(len(png))
            table.act(next_action(policy, seat_view, rng))
            if bucket is not None and not table.is_over:
                placed_view = table.view(seat)
                choices = partial(deploy_panel, placed_view, TurnDraft())
                timings.timed(bucket, "deploy_choices", choices)
                timings.timed(bucket, "deploy_picture", partial(deploy_png, placed_view))
            if not table.is_over:
                table.act(next_action(policy, table.view(seat), rng))
    return {
        f"{size}_tiles": {
            **{kind: summary_ms(values) for kind, values in timings.wall[size].items()},
            "cpu": {kind: summary_ms(values) for kind, values in timings.cpu[size].items()},
            "place_png_bytes_max": max(png_bytes[size], default=0),
        }
        for size in SIZES
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(json.dumps(measure(args.games, args.seed), indent=2))


if __name__ == "__main__":
    main()
