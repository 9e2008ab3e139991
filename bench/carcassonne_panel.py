"""The Carcassonne panel's own work per click, without Discord: listing the spots where the
tile fits, the placement picture (the tile drawn where it would go, every spot numbered),
the deployment choices and their picture, on maps of about 10, 40 and 70 tiles.

    python bench/carcassonne_panel.py [--games 5] [--seed 1]

Prints JSON (milliseconds: median and p99 over every turn of ``--games`` random games at
each size; picture sizes in bytes). A measurement, never a test.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

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


def measure(games: int, seed: int) -> dict[str, object]:
    timings: dict[int, dict[str, list[float]]] = {
        size: {"spots": [], "place_picture": [], "deploy_choices": [], "deploy_picture": []}
        for size in SIZES
    }
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
                started = time.perf_counter()
                shown = place_panel(seat_view, TurnDraft())
                timings[bucket]["spots"].append(time.perf_counter() - started)
                if shown is not None:
                    started = time.perf_counter()
                    png = place_png(seat_view, shown.placement, shown.squares)
                    timings[bucket]["place_picture"].append(time.perf_counter() - started)
                    png_bytes[bucket].append(len(png))
            table.act(next_action(policy, seat_view, rng))
            if bucket is not None and not table.is_over:
                placed_view = table.view(seat)
                started = time.perf_counter()
                deploy_panel(placed_view, TurnDraft())
                timings[bucket]["deploy_choices"].append(time.perf_counter() - started)
                started = time.perf_counter()
                deploy_png(placed_view)
                timings[bucket]["deploy_picture"].append(time.perf_counter() - started)
            if not table.is_over:
                table.act(next_action(policy, table.view(seat), rng))
    return {
        f"{size}_tiles": {
            **{name: summary_ms(values) for name, values in timings[size].items()},
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
